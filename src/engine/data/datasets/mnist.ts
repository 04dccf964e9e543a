/**
 * Loads the bundled MNIST-format datasets (built by scripts/build-data.mjs) into plain typed
 * arrays. MNIST and Fashion-MNIST share one format and one loader; a descriptor says which.
 */
import { gunzipIfNeeded } from './gunzip';
import { parseIdxUbyte } from './idx';
import type { ReadAsset } from './read-asset';

/** A bundled dataset of 28×28 greyscale images in ten classes, in MNIST's file layout. */
export interface ImageDataset {
  /** torchvision's class name: `MNIST`, `FashionMNIST`. */
  readonly name: string;
  /** Its folder in the data root: `mnist`, `fashion-mnist`. */
  readonly dir: string;
  /** The name of each label, as torchvision's `classes` lists them. */
  readonly classes: readonly string[];
}

export const MNIST: ImageDataset = {
  name: 'MNIST',
  dir: 'mnist',
  classes: [
    '0 - zero',
    '1 - one',
    '2 - two',
    '3 - three',
    '4 - four',
    '5 - five',
    '6 - six',
    '7 - seven',
    '8 - eight',
    '9 - nine',
  ],
};

export const FASHION_MNIST: ImageDataset = {
  name: 'FashionMNIST',
  dir: 'fashion-mnist',
  classes: [
    'T-shirt/top',
    'Trouser',
    'Pullover',
    'Dress',
    'Coat',
    'Sandal',
    'Shirt',
    'Sneaker',
    'Bag',
    'Ankle boot',
  ],
};

export interface MnistOptions {
  /** The 60,000 training images, or else the 10,000 test images. */
  train: boolean;
  /** Only the first `limit` images; only the image files that hold them are read. */
  limit?: number;
}

export interface MnistData {
  /** `count` images of rows × cols bytes (0 = background, 255 = ink), row-major. */
  images: Uint8Array;
  /** Class 0–9 of each image. */
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

async function readJson(readAsset: ReadAsset, path: string): Promise<unknown> {
  const bytes = await gunzipIfNeeded(await readAsset(path));
  return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
}

function asManifest(value: unknown, path: string): Manifest {
  const m = value as Partial<Manifest> | null;
  if (!m || m.format !== 1 || !m.train || !m.test || !m.rows || !m.cols) {
    throw new Error(`${path}: unknown format (rebuild with scripts/build-data.mjs)`);
  }
  return m as Manifest;
}

/** One split of a bundled image dataset: `loadImageDataset(readAsset, FASHION_MNIST, { train })`. */
export async function loadImageDataset(
  readAsset: ReadAsset,
  dataset: ImageDataset,
  options: MnistOptions,
): Promise<MnistData> {
  const dir = `${dataset.dir}/`;
  const manifest = asManifest(
    await readJson(readAsset, `${dir}manifest.json`),
    `${dir}manifest.json`,
  );
  const split = options.train ? manifest.train : manifest.test;
  const limit = options.limit ?? split.count;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new Error(`${dataset.name} limit must be a non-negative integer, got ${limit}`);
  }
  const count = Math.min(limit, split.count);
  const pixels = manifest.rows * manifest.cols;
  const wanted = split.images.filter((chunk) => chunk.start < count);

  // Every file is requested at once so that the fetches overlap.
  const [labelFile, ...imageFiles] = await Promise.all([
    readAsset(dir + split.labels).then(gunzipIfNeeded),
    ...wanted.map((chunk) => readAsset(dir + chunk.file).then(gunzipIfNeeded)),
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
  if (filled !== count) throw new Error(`${dir}manifest.json: image files do not cover the split`);

  return {
    images,
    labels: labelIdx.data.slice(0, count),
    count,
    shape: [count, manifest.rows, manifest.cols],
  };
}

/** The bundled MNIST digits. */
export function loadMnist(readAsset: ReadAsset, options: MnistOptions): Promise<MnistData> {
  return loadImageDataset(readAsset, MNIST, options);
}

/** The bundled Fashion-MNIST clothing images. */
export function loadFashionMnist(readAsset: ReadAsset, options: MnistOptions): Promise<MnistData> {
  return loadImageDataset(readAsset, FASHION_MNIST, options);
}
