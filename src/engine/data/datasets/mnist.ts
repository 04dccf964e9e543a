/** Loads the bundled MNIST digits (built by scripts/build-data.mjs) into plain typed arrays. */
import { gunzipIfNeeded } from './gunzip';
import { parseIdxUbyte } from './idx';
import type { ReadAsset } from './read-asset';

export interface MnistOptions {
  /** The 60,000 training digits, or else the 10,000 test digits. */
  train: boolean;
  /** Only the first `limit` digits; only the image files that hold them are read. */
  limit?: number;
}

export interface MnistData {
  /** `count` images of rows × cols bytes (0 = background, 255 = ink), row-major. */
  images: Uint8Array;
  /** Digit 0–9 of each image. */
  labels: Uint8Array;
  count: number;
  /** [count, rows, cols]: [N, 28, 28]. */
  shape: [number, number, number];
}

interface ManifestSplit {
  count: number;
  labels: string;
  images: { file: string; start: number; count: number }[];
}

interface Manifest {
  format: number;
  rows: number;
  cols: number;
  train: ManifestSplit;
  test: ManifestSplit;
}

const DIR = 'mnist/';

async function readJson(readAsset: ReadAsset, path: string): Promise<unknown> {
  const bytes = await gunzipIfNeeded(await readAsset(path));
  return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
}

function asManifest(value: unknown): Manifest {
  const m = value as Partial<Manifest> | null;
  if (!m || m.format !== 1 || !m.train || !m.test || !m.rows || !m.cols) {
    throw new Error('mnist/manifest.json: unknown format (rebuild with scripts/build-data.mjs)');
  }
  return m as Manifest;
}

export async function loadMnist(readAsset: ReadAsset, options: MnistOptions): Promise<MnistData> {
  const manifest = asManifest(await readJson(readAsset, `${DIR}manifest.json`));
  const split = options.train ? manifest.train : manifest.test;
  const limit = options.limit ?? split.count;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new Error(`MNIST limit must be a non-negative integer, got ${limit}`);
  }
  const count = Math.min(limit, split.count);
  const pixels = manifest.rows * manifest.cols;
  const wanted = split.images.filter((chunk) => chunk.start < count);

  // Every file is requested at once so that the fetches overlap.
  const [labelFile, ...imageFiles] = await Promise.all([
    readAsset(DIR + split.labels).then(gunzipIfNeeded),
    ...wanted.map((chunk) => readAsset(DIR + chunk.file).then(gunzipIfNeeded)),
  ]);

  const labelIdx = parseIdxUbyte(labelFile, 1, split.labels);
  if (labelIdx.dims[0] !== split.count) throw new Error(`${split.labels}: wrong label count`);
  const images = new Uint8Array(count * pixels);
  let filled = 0;
  wanted.forEach((chunk, i) => {
    const idx = parseIdxUbyte(imageFiles[i], 3, chunk.file);
    const [n, rows, cols] = idx.dims;
    if (n !== chunk.count || rows !== manifest.rows || cols !== manifest.cols) {
      throw new Error(`${chunk.file}: dimensions ${idx.dims.join('×')} disagree with manifest`);
    }
    const take = Math.min(n, count - chunk.start);
    images.set(idx.data.subarray(0, take * pixels), chunk.start * pixels);
    filled += take;
  });
  if (filled !== count) throw new Error('mnist/manifest.json: image files do not cover the split');

  return {
    images,
    labels: labelIdx.data.slice(0, count),
    count,
    shape: [count, manifest.rows, manifest.cols],
  };
}
