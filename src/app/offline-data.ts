/**
 * "Make all chapter data available offline": reads the data root's index (public/data/index.json,
 * written by scripts/build-data.mjs with every file and its bytes), tells which files the service
 * worker's data cache already holds, and fetches the others through the service worker, whose
 * runtime route for `data/` stores each response in that cache (src/pwa/sw.ts).
 */
import { fetchAssetReader } from '../engine/data/datasets/read-asset';
import { DATA_CACHE, DATA_INDEX } from '../pwa/caches';

export interface DataFile {
  /** Relative to the data root: `mnist/manifest.json`. */
  path: string;
  bytes: number;
}

/** The files listed by index.json, or null when it is not the index of scripts/build-data.mjs. */
export function parseDataIndex(value: unknown): DataFile[] | null {
  const files = (value as { files?: unknown } | null)?.files;
  if (!Array.isArray(files) || files.length === 0) return null;
  const valid = files.every(
    (f: Partial<DataFile> | null) =>
      typeof f?.path === 'string' &&
      f.path.length > 0 &&
      !f.path.startsWith('/') &&
      !f.path.includes('..') &&
      typeof f.bytes === 'number' &&
      Number.isFinite(f.bytes) &&
      f.bytes >= 0,
  );
  return valid ? (files as DataFile[]).map(({ path, bytes }) => ({ path, bytes })) : null;
}

export function totalBytes(files: readonly DataFile[]): number {
  return files.reduce((sum, f) => sum + f.bytes, 0);
}

/** "13.8 MB". */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function dataRoot(): URL {
  return new URL(`${import.meta.env.BASE_URL}data/`, window.location.href);
}

function dataUrl(path: string): string {
  return new URL(path, dataRoot()).href;
}

/** The data files of the build being served (index.json is network-first in the worker). */
export async function readDataIndex(): Promise<DataFile[] | null> {
  const response = await fetch(dataUrl(DATA_INDEX), { headers: { Accept: 'application/json' } });
  return response.ok ? parseDataIndex(await response.json()) : null;
}

/** Whether this browser can keep files for offline use at all. */
export function canKeepOffline(): boolean {
  return 'caches' in window && 'serviceWorker' in navigator;
}

/**
 * What offline use needs: the listed files and the index itself (which the home page reads to
 * show this control; it may have been read before the service worker took control).
 */
function withIndex(files: readonly DataFile[]): DataFile[] {
  return [...files, { path: DATA_INDEX, bytes: 0 }];
}

/** The files (and the index) the service worker's data cache does not hold yet. */
export async function missingFromCache(listed: readonly DataFile[]): Promise<DataFile[]> {
  const files = withIndex(listed);
  const cache = await caches.open(DATA_CACHE);
  const held = await Promise.all(
    files.map(async (f) => (await cache.match(dataUrl(f.path))) !== undefined),
  );
  return files.filter((_, i) => !held[i]);
}

/** Waits (at most `timeoutMs`) until a service worker controls the page. */
async function serviceWorkerInControl(timeoutMs: number): Promise<boolean> {
  const container = navigator.serviceWorker;
  if (container.controller) return true;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
  return container.controller !== null;
}

const PARALLEL = 3;

/**
 * Fetches every file the data cache lacks through the service worker, which keeps each one;
 * `onProgress` gets the bytes (as listed in the index) of the files now held. Fails with a
 * DataFileError naming the file and the reason, or with an Error when no service worker runs.
 */
export async function makeDataAvailableOffline(
  files: readonly DataFile[],
  onProgress: (doneBytes: number) => void,
): Promise<void> {
  if (!(await serviceWorkerInControl(10_000))) {
    throw new Error(
      'Chapter data cannot be kept for offline use: no service worker controls this page ' +
        '(it runs in the built app, not the dev server, over HTTPS or on localhost, and not in ' +
        'every private window). Reload the page and try again.',
    );
  }
  const missing = await missingFromCache(files);
  let done = totalBytes(files) - totalBytes(missing);
  onProgress(done);

  // The worker's reader, read to the end (the service worker stores a response once its body has
  // arrived), with the download's advice in its errors.
  const fetchOne = fetchAssetReader(dataRoot(), 'download');
  const queue = [...missing];
  let failed = false;
  const fetchNext = async (): Promise<void> => {
    for (let file = queue.shift(); file && !failed; file = queue.shift()) {
      try {
        await fetchOne(file.path);
      } catch (error) {
        failed = true;
        throw error;
      }
      done += file.bytes;
      onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, missing.length) }, fetchNext));

  // The service worker stores each response after handing it over: give it a moment.
  let notKept = await missingFromCache(files);
  for (let attempt = 0; notKept.length > 0 && attempt < 20; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    notKept = await missingFromCache(files);
  }
  if (notKept.length > 0) {
    throw new Error(
      `${notKept.length} of ${files.length + 1} data files (public/data/${notKept[0].path}, …) were ` +
        'downloaded but not kept for offline use: the browser may be out of storage for this site.',
    );
  }
}
