import { describe, expect, it } from 'vitest';
import { cpu, manualSeed, memoryStats, ops, type Tensor } from '../../../engine';
import { AUTOTUNE, Dataset, INFINITE_CARDINALITY } from './dataset';

const device = cpu();

function xy(n: number): [Tensor, Tensor] {
  const x = ops.fromHost(
    Float32Array.from({ length: n * 3 }, (_, i) => i),
    [n, 3],
    { device },
  );
  const y = ops.fromHost(
    Int32Array.from({ length: n }, (_, i) => 100 + i),
    [n],
    { device },
  );
  return [x, y];
}

/** The label of each element of each batch, one pass. */
async function labelsOf(ds: Dataset<Tensor[]>): Promise<number[]> {
  const out: number[] = [];
  for await (const [, y] of ds) out.push(...((await y.tolist()) as number[]));
  return out;
}

describe('tf.data.Dataset', () => {
  it('fromTensorSlices([x, y]).batch(n): batches of rows in order, the last one short', async () => {
    const ds = Dataset.fromTensorSlices(xy(10)).batch(4);
    expect(ds.cardinality()).toBe(3);
    expect(ds.length).toBe(3);
    const batches: [number[], number[]][] = [];
    for await (const [x, y] of ds) batches.push([[...x.shape], [...y.shape]]);
    expect(batches).toEqual([
      [[4, 3], [4]],
      [[4, 3], [4]],
      [[2, 3], [2]],
    ]);
    const [first] = await Dataset.fromTensorSlices(xy(10)).batch(4).toArray();
    expect(await first[0].tolist()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7, 8],
      [9, 10, 11],
    ]);
    expect(first[1].dtype).toBe('int32');
    expect(Dataset.fromTensorSlices(xy(10)).batch(4, { dropRemainder: true }).cardinality()).toBe(
      2,
    );
  });

  it('accepts typed arrays, nested arrays and records; unbatched elements are rows', async () => {
    const ds = Dataset.fromTensorSlices([
      new Uint8Array([5, 6, 7]),
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
    ]);
    const elements = await ds.toArray();
    expect(elements.length).toBe(3);
    expect(elements[2][0].dtype).toBe('int32');
    expect(await elements[2][0].item()).toBe(7);
    expect(await elements[2][1].tolist()).toEqual([5, 6]);
    const rec = Dataset.fromTensorSlices({
      a: new Float32Array([1, 2]),
      b: new Int32Array([3, 4]),
    }).batch(2);
    const [batch] = await rec.toArray();
    expect(await batch.a.tolist()).toEqual([1, 2]);
    expect(await batch.b.tolist()).toEqual([3, 4]);
    expect(() => Dataset.fromTensorSlices([new Float32Array(3), new Float32Array(4)])).toThrow(
      /same number of rows/,
    );
  });

  it('shuffle is a permutation, reproducible after setting the seed, reshuffled on each pass', async () => {
    manualSeed(42);
    const a = Dataset.fromTensorSlices(xy(50)).shuffle(1000).batch(8);
    manualSeed(42);
    const b = Dataset.fromTensorSlices(xy(50)).shuffle(1000).batch(8);
    const passA1 = await labelsOf(a);
    const passA2 = await labelsOf(a);
    expect(await labelsOf(b)).toEqual(passA1);
    expect([...passA1].sort((p, q) => p - q)).toEqual(
      Array.from({ length: 50 }, (_, i) => 100 + i),
    );
    expect(passA1).not.toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
    expect(passA2).not.toEqual(passA1);
    const fixed = Dataset.fromTensorSlices(xy(20)).shuffle(100, {
      seed: 3,
      reshuffleEachIteration: false,
    });
    expect(await labelsOf(fixed.batch(20))).toEqual(await labelsOf(fixed.batch(20)));
  });

  it("follows TF's buffer: with bufferSize k the i-th output comes from the first i + k inputs", async () => {
    manualSeed(1);
    const order = await labelsOf(Dataset.fromTensorSlices(xy(40)).shuffle(3).batch(40));
    order.forEach((label, i) => expect(label - 100).toBeLessThan(i + 3));
    expect(await labelsOf(Dataset.fromTensorSlices(xy(6)).shuffle(1).batch(6))).toEqual([
      100, 101, 102, 103, 104, 105,
    ]);
  });

  it('cache() after shuffle freezes the first pass, as in TF; prefetch(AUTOTUNE) changes nothing', async () => {
    manualSeed(9);
    const ds = Dataset.fromTensorSlices(xy(30)).shuffle(1000).batch(4).prefetch(AUTOTUNE).cache();
    const first = await labelsOf(ds);
    const second = await labelsOf(ds);
    expect(second).toEqual(first);
    const batches1 = await ds.toArray();
    const batches2 = await ds.toArray();
    expect(batches2[0][0]).toBe(batches1[0][0]);
  });

  it('take, skip, repeat, map and cardinality', async () => {
    const base = Dataset.fromTensorSlices(xy(10));
    expect(await labelsOf(base.skip(7).batch(10))).toEqual([107, 108, 109]);
    expect(await labelsOf(base.take(3).batch(10))).toEqual([100, 101, 102]);
    expect(await labelsOf(base.take(4).repeat(2).batch(3))).toEqual([
      100, 101, 102, 103, 100, 101, 102, 103,
    ]);
    expect(base.repeat().cardinality()).toBe(INFINITE_CARDINALITY);
    expect(base.repeat().take(25).batch(10).cardinality()).toBe(3);
    expect(base.batch(3).take(2).cardinality()).toBe(2);
    const mapped = base.map((x: Tensor, y: Tensor) => [ops.mul(x, 2), ops.sub(y, 100)]).batch(5);
    const [[mx, my]] = await mapped.toArray();
    expect(await my.tolist()).toEqual([0, 1, 2, 3, 4]);
    expect(await mx.slice(0, 0, 1).tolist()).toEqual([[0, 2, 4]]);
  });

  it('each element starts a new step for the engine (stepBoundary)', async () => {
    const ds = Dataset.fromTensorSlices(xy(9)).batch(3);
    const before = memoryStats().generation;
    for await (const _ of ds) void _;
    expect(memoryStats().generation - before).toBe(4);
  });
  it('filter keeps the elements whose predicate is true (a tensor or a boolean), then batches them', async () => {
    const ds = Dataset.fromTensorSlices(xy(12))
      .filter((_x: Tensor, y: Tensor) => ops.ge(y, 105))
      .filter((_x: Tensor, y: Tensor) => ops.ne(y, 107))
      .filter((x: Tensor) => x.shape[0] === 3);
    expect(ds.cardinality()).toBe(-2);
    expect(() => ds.length).toThrow(/length is unknown/);
    // Labels 100..111; kept where label >= 105 and label != 107.
    const kept = [105, 106, 108, 109, 110, 111];
    expect(await labelsOf(ds.batch(4))).toEqual(kept);
    expect(await labelsOf(ds.repeat(2).batch(20))).toEqual([...kept, ...kept]);
    const bad = Dataset.fromTensorSlices(xy(4)).filter((x: Tensor) => x);
    await expect(labelsOf(bad.batch(2))).rejects.toThrow(
      /must return a scalar, got a tensor of shape \[3\]/,
    );
  });
});
