/**
 * The bundled Fashion-MNIST (scripts/build-data.mjs, from Debian's dataset-fashion-mnist): the
 * loader decodes the splits, and a few random images and labels are the bytes of the original
 * IDX files, read here straight from the Debian package with plain offsets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtDataReader } from './built-data.testing';
import { FASHION_MNIST, loadFashionMnist, type MnistData } from './mnist';

const DEBIAN_DIR = '/usr/share/datasets/fashion-mnist';
const debianMissing = !existsSync(`${DEBIAN_DIR}/train-images-idx3-ubyte.gz`);
if (debianMissing) {
  console.warn(
    `fashion-mnist.test.ts: the comparison with the original files is skipped: ${DEBIAN_DIR} is ` +
      'absent (Debian: apt-get install dataset-fashion-mnist).',
  );
}

/** An original IDX file, inflated, without its header. */
const original = (name: string, header: number): Uint8Array =>
  new Uint8Array(gunzipSync(readFileSync(`${DEBIAN_DIR}/${name}.gz`))).subarray(header);

function histogram(labels: Uint8Array): number[] {
  const counts = new Array<number>(10).fill(0);
  for (const l of labels) counts[l]++;
  return counts;
}

/** A few indices spread over a split, the same on every run (first, last and a seeded few). */
function someIndices(count: number): number[] {
  let seed = 12345;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * count;
  return [0, count - 1, ...Array.from({ length: 6 }, () => Math.floor(next()))];
}

describe('loadFashionMnist', () => {
  let train: MnistData;
  let test: MnistData;

  beforeAll(async () => {
    const readAsset = builtDataReader();
    [train, test] = await Promise.all([
      loadFashionMnist(readAsset, { train: true }),
      loadFashionMnist(readAsset, { train: false }),
    ]);
  });

  it('has 60,000 training and 10,000 test images of 28×28, 6,000 and 1,000 of each class', () => {
    expect(train.shape).toEqual([60000, 28, 28]);
    expect(train.images.length).toBe(60000 * 784);
    expect(train.labels.length).toBe(60000);
    expect(test.shape).toEqual([10000, 28, 28]);
    expect(test.images.length).toBe(10000 * 784);
    expect(histogram(train.labels)).toEqual(new Array(10).fill(6000));
    expect(histogram(test.labels)).toEqual(new Array(10).fill(1000));
    expect(FASHION_MNIST.classes).toHaveLength(10);
  });

  it.skipIf(debianMissing)('holds the bytes of the original IDX files', () => {
    for (const [data, prefix] of [
      [train, 'train'],
      [test, 't10k'],
    ] as const) {
      const images = original(`${prefix}-images-idx3-ubyte`, 16);
      const labels = original(`${prefix}-labels-idx1-ubyte`, 8);
      expect(images.length).toBe(data.images.length);
      for (const i of someIndices(data.count)) {
        expect(data.labels[i], `${prefix} label ${i}`).toBe(labels[i]);
        const image = data.images.subarray(i * 784, (i + 1) * 784);
        expect(Buffer.compare(image, images.subarray(i * 784, (i + 1) * 784))).toBe(0);
      }
    }
  });

  it('reads a limited split as MNIST does', async () => {
    const few = await loadFashionMnist(builtDataReader(), { train: false, limit: 3 });
    expect(few.shape).toEqual([3, 28, 28]);
    expect(Array.from(few.labels)).toEqual(Array.from(test.labels.subarray(0, 3)));
    await expect(loadFashionMnist(builtDataReader(), { train: true, limit: -1 })).rejects.toThrow(
      /FashionMNIST limit/,
    );
  });
});
