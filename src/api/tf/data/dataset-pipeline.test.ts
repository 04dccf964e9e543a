/**
 * tf.data's pipeline methods against plain re-implementations of TensorFlow's semantics on arrays
 * of numbers: range, repeat then batch across epochs, take, skip, unbatch (the inverse of batch,
 * over batches of different sizes), cache with a filename, prefetch, and their cardinalities.
 */
import { describe, expect, it } from 'vitest';
import { cpu, ops } from '../../../engine';
import { AUTOTUNE, Dataset, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY } from './dataset';
import type { Tensor } from '../../../engine';

/** One pass of a dataset of int scalars or int vectors, as nested arrays. */
async function values(ds: Dataset<Tensor>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const t of ds) out.push(await t.tolist());
  return out;
}

/** Plain TF semantics on arrays. */
const plain = {
  range: (start: number, stop: number, step = 1): number[] => {
    const out: number[] = [];
    for (let v = start; step > 0 ? v < stop : v > stop; v += step) out.push(v);
    return out;
  },
  repeat: <T>(xs: T[], n: number): T[] => Array.from({ length: n }, () => xs).flat(),
  batch: <T>(xs: T[], size: number, drop = false): T[][] => {
    const out: T[][] = [];
    for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
    return drop && out.length && out[out.length - 1].length < size ? out.slice(0, -1) : out;
  },
};

describe('tf.data pipeline methods', () => {
  it('range(stop), range(start, stop, step) with negative steps, and empty ranges', async () => {
    expect(await values(Dataset.range(5))).toEqual(plain.range(0, 5));
    expect(await values(Dataset.range(2, 11, 3))).toEqual(plain.range(2, 11, 3));
    expect(await values(Dataset.range(5, -4, -2))).toEqual(plain.range(5, -4, -2));
    const empty = Dataset.range(3, 3);
    expect(empty.cardinality()).toBe(0);
    expect(await values(empty)).toEqual([]);
    expect(await values(Dataset.range(0).repeat(3).batch(2))).toEqual([]);
    expect(() => Dataset.range(1, 5, 0)).toThrow(/step must not be zero/);
  });

  it('repeat then batch runs batches across epochs; batch then repeat does not', async () => {
    const xs = plain.range(0, 5);
    expect(await values(Dataset.range(5).repeat(3).batch(4))).toEqual(
      plain.batch(plain.repeat(xs, 3), 4),
    );
    expect(await values(Dataset.range(5).batch(4).repeat(2))).toEqual(
      plain.repeat(plain.batch(xs, 4), 2),
    );
    expect(Dataset.range(5).repeat(3).batch(4).cardinality()).toBe(4);
    expect(Dataset.range(5).repeat().cardinality()).toBe(INFINITE_CARDINALITY);
    expect(Dataset.range(5).repeat({ count: -1 }).take(12).cardinality()).toBe(12);
    expect(await values(Dataset.range(5).repeat().take(12))).toEqual(
      plain.repeat(xs, 3).slice(0, 12),
    );
  });

  it('take and skip (-1: all), with the count by name too', async () => {
    const xs = plain.range(0, 10);
    expect(await values(Dataset.range(10).take(3))).toEqual(xs.slice(0, 3));
    expect(await values(Dataset.range(10).skip({ count: 7 }))).toEqual(xs.slice(7));
    expect(await values(Dataset.range(10).skip(4).take(-1))).toEqual(xs.slice(4));
    expect(await values(Dataset.range(10).skip(-1))).toEqual([]);
    expect(Dataset.range(10).skip(4).take(3).cardinality()).toBe(3);
    expect(() => Dataset.range(10).take(-2)).toThrow(/take: count must be >= -1/);
  });

  it('unbatch undoes batch (also a short last batch), tuples kept together', async () => {
    const xs = plain.range(0, 7);
    expect(await values(Dataset.range(7).batch(3).unbatch())).toEqual(xs);
    expect(await values(Dataset.range(7).batch(3).unbatch().batch(2))).toEqual(plain.batch(xs, 2));
    expect(Dataset.range(7).batch(3).unbatch().cardinality()).toBe(UNKNOWN_CARDINALITY);
    const x = ops.reshape(ops.arange(0, 12, 1, { device: cpu() }), [2, 3, 2]);
    const y = ops.arange(10, 12, 1, { device: cpu() });
    const rows: unknown[] = [];
    for await (const [a, b] of Dataset.fromTensorSlices([x, ops.stack([y, y, y], 1)]).unbatch())
      rows.push([await a.tolist(), await b.tolist()]);
    expect(rows).toEqual([
      [[0, 1], 10],
      [[2, 3], 10],
      [[4, 5], 10],
      [[6, 7], 11],
      [[8, 9], 11],
      [[10, 11], 11],
    ]);
    await expect(values(Dataset.range(3).unbatch())).rejects.toThrow(/scalar components/);
  });

  it('cache (a filename is accepted; the cache stays in memory) replays the first pass', async () => {
    const ds = Dataset.range(6).shuffle(6, { seed: 5 }).cache('/tmp/ds-cache');
    const first = await values(ds);
    expect(await values(ds)).toEqual(first);
    expect([...(first as number[])].sort((a, b) => a - b)).toEqual(plain.range(0, 6));
    expect(() => Dataset.range(3).cache(3)).toThrow(/filename must be a string/);
  });

  it('prefetch(AUTOTUNE) changes nothing', async () => {
    const ds = Dataset.range(5).batch(2);
    expect(await values(ds.prefetch(AUTOTUNE))).toEqual(await values(ds));
    expect(ds.prefetch({ bufferSize: 2 }).cardinality()).toBe(3);
  });
});
