/**
 * What a failed read of a bundled data file says: which file (and which dataset it belongs to)
 * and why — the browser is offline, the request failed, or the server answered an HTTP error —
 * with the original error kept as `cause`. Used by the worker's fetch reader and by the home page
 * when it downloads every data file for offline use. Free of DOM and Node APIs.
 */

/** Why a data file could not be read. */
export type DataFileFailure =
  { kind: 'offline' } | { kind: 'network' } | { kind: 'http'; status: number; statusText: string };

const MNIST_IMAGES = /^mnist\/(train|test)-images-(\d+)\.idx3-ubyte(?:\.gz)?$/;
const MNIST_LABELS = /^mnist\/(train|test)-labels\.idx1-ubyte(?:\.gz)?$/;
const SPLIT = { train: 'training', test: 'test' } as const;

/**
 * A reader's name for a file of the data root (`mnist/train-images-0.idx3-ubyte.gz`): what it
 * holds and which dataset it belongs to, e.g. "MNIST training images (part 1 of the training set)".
 */
export function describeDataFile(path: string): string {
  const images = MNIST_IMAGES.exec(path);
  if (images) {
    const split = SPLIT[images[1] as keyof typeof SPLIT];
    return `MNIST ${split} images (part ${Number(images[2]) + 1} of the ${split} set)`;
  }
  const labels = MNIST_LABELS.exec(path);
  if (labels) return `MNIST ${SPLIT[labels[1] as keyof typeof SPLIT]} labels`;
  if (path === 'mnist/manifest.json') return 'the MNIST manifest';
  if (path.startsWith('sotu/corpus.json')) {
    return 'the State of the Union corpus (the Reuters stand-in): its vocabulary and labels';
  }
  if (path.startsWith('sotu/tokens.bin')) {
    return 'the State of the Union corpus (the Reuters stand-in): its word ids';
  }
  if (path.startsWith('text/sotu.txt')) {
    return 'the State of the Union plain text (addresses 1993-2021)';
  }
  if (path === 'index.json') return 'the index of bundled data files';
  return 'a bundled data file';
}

const FIRST_USE =
  'Bundled data is fetched and cached on first use while the browser is online, and this file ' +
  'has not been cached yet.';
const REMEDY =
  'Go online and run the cell again, or, while online, use "Make all chapter data available ' +
  'offline" on the home page before going offline.';

/**
 * Who was reading: a cell loading a dataset (`load`), or the home page downloading every data
 * file for offline use (`download`). Only the advice differs.
 */
export type DataFileContext = 'load' | 'download';

/** The reason part of the message, without the file's name. */
export function explainFailure(
  failure: DataFileFailure,
  context: DataFileContext = 'load',
): string {
  const download = context === 'download';
  switch (failure.kind) {
    case 'offline':
      return download
        ? 'the browser is offline. Go online and try again: chapter data can only be made available offline while online.'
        : `the browser is offline. ${FIRST_USE} ${REMEDY}`;
    case 'network': {
      const what =
        'the network request failed (the connection may be down or the server unreachable).';
      return download
        ? `${what} Try again once the connection is back.`
        : `${what} ${FIRST_USE} ${REMEDY}`;
    }
    case 'http': {
      const status = `HTTP ${failure.status}${failure.statusText ? ` ${failure.statusText}` : ''}`;
      return (
        `the server answered ${status}. ` +
        (failure.status === 404
          ? 'The app was served without this data file (scripts/build-data.mjs builds public/data before vite build).'
          : 'Try again later; bundled data is fetched and cached on first use while online.')
      );
    }
  }
}

/** A bundled data file that could not be read; `cause` is what fetch threw, if it threw. */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';

  constructor(
    /** The file, relative to the data root: `mnist/manifest.json`. */
    readonly path: string,
    readonly failure: DataFileFailure,
    options?: { cause?: unknown; context?: DataFileContext },
  ) {
    const context = options?.context ?? 'load';
    super(
      `${capitalise(describeDataFile(path))} (public/data/${path}) could not be ` +
        `${context === 'download' ? 'downloaded' : 'loaded'}: ${explainFailure(failure, context)}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether the platform says it is online (`navigator.onLine`); unknown counts as online. */
export function platformOnline(): boolean {
  const nav = (globalThis as { navigator?: { onLine?: unknown } }).navigator;
  return typeof nav?.onLine === 'boolean' ? nav.onLine : true;
}

/** The failure for a fetch that threw (rather than answered): offline or a network failure. */
export function failureOfThrown(online = platformOnline()): DataFileFailure {
  return online ? { kind: 'network' } : { kind: 'offline' };
}
