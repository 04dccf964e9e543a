import { describe, expect, it } from 'vitest';
import * as ops from '.';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { checkOp, intTensorOf, randomRef, rng, tensorOf } from '../testing/harness';
import { reduce, sumOf, unravel } from '../testing/reference';

const devices = await testDevices();

const cases: [number[], number[] | undefined, boolean][] = [
  [[7], undefined, false],
  [[33], [0], true],
  [[3, 5], [1], false],
  [[3, 5], [0], true],
  [[2, 3, 4], [0, 2], false],
  [[2, 3, 4], [-1], true],
  [[4, 1, 6], undefined, true],
  [[5, 7], [0, 1], false],
];

describe.each(devices.map((d) => [d.name, d] as const))('reductions on %s', (_, device) => {
  it.each(cases)('sum of %j over %j (keepdim %s)', async (shape, dims, keepdim) => {
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.sum(x, dims, keepdim),
        reference: ([x]) => reduce(x, dims, keepdim, sumOf),
      },
      'sum',
    );
  });

  it.each(cases)('mean of %j over %j (keepdim %s)', async (shape, dims, keepdim) => {
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.mean(x, dims, keepdim),
        reference: ([x]) => reduce(x, dims, keepdim, (v) => sumOf(v) / v.length),
      },
      'mean',
    );
  });

  it.each(cases)('amax and amin of %j over %j (keepdim %s)', async (shape, dims, keepdim) => {
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.amax(x, dims, keepdim),
        reference: ([x]) => reduce(x, dims, keepdim, (v) => Math.max(...v)),
      },
      'amax',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.amin(x, dims, keepdim),
        reference: ([x]) => reduce(x, dims, keepdim, (v) => Math.min(...v)),
      },
      'amin',
    );
  });

  it('sums a transposed view and a 0-d tensor', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [4, 6] }],
        engine: ([x]) => ops.sum(ops.transpose(x, 0, 1), 1),
        reference: ([x]) => reduce(x, [0], false, sumOf),
      },
      'sum of transpose',
    );
    await checkOp(
      device,
      { inputs: [{ shape: [] }], engine: ([x]) => ops.sum(x), reference: ([x]) => x },
      'sum of 0-d',
    );
  });

  it('argmax and argmin give the index along a dim, or in the flattened tensor', async () => {
    const r = randomRef([3, 7], rng(5));
    const x = tensorOf(r, device);
    const rows = [0, 1, 2].map((i) => Array.from(r.data.slice(i * 7, i * 7 + 7)));
    const argmaxRows = rows.map((row) => row.indexOf(Math.max(...row)));
    const argminRows = rows.map((row) => row.indexOf(Math.min(...row)));
    const am = ops.argmax(x, 1);
    expect(am.dtype).toBe('int32');
    expect(Array.from(await am.data())).toEqual(argmaxRows);
    expect(Array.from(await ops.argmin(x, -1).data())).toEqual(argminRows);
    const cols = Array.from({ length: 7 }, (_, j) => [0, 1, 2].map((i) => r.data[i * 7 + j]));
    expect(Array.from(await ops.argmax(x, 0).data())).toEqual(
      cols.map((c) => c.indexOf(Math.max(...c))),
    );
    const flat = Array.from(r.data);
    const all = ops.argmax(x);
    expect(all.shape).toEqual([]);
    expect(await all.item()).toBe(flat.indexOf(Math.max(...flat)));
    expect([...ops.argmax(x, 1, true).shape]).toEqual([3, 1]);
  });

  it.each([7, 5000])(
    'a NaN wins amax, amin, argmax and argmin (its first occurrence), rows of %i',
    async (length) => {
      const r = randomRef([2, length], rng(length));
      // Row 1 holds two NaNs; row 0 none (a long row is reduced in chunks on WebGPU).
      const [first, second] = [Math.floor(length / 3), length - 2];
      r.data[length + first] = NaN;
      r.data[length + second] = NaN;
      const x = tensorOf(r, device);
      const row0 = Array.from(r.data.slice(0, length));
      const values = async (t: Tensor) => Array.from(await t.data());
      const [max0, max1] = await values(ops.amax(x, 1));
      const [min0, min1] = await values(ops.amin(x, 1));
      expect([max0, min0]).toEqual([Math.max(...row0), Math.min(...row0)]);
      expect([max1, min1]).toEqual([NaN, NaN]);
      expect(await values(ops.argmax(x, 1))).toEqual([row0.indexOf(Math.max(...row0)), first]);
      expect(await values(ops.argmin(x, 1))).toEqual([row0.indexOf(Math.min(...row0)), first]);
      expect(await ops.argmax(x).item()).toBe(length + first);
    },
  );

  it('max(dim) returns values and indices, and splits the gradient of ties evenly', async () => {
    const x = ops.fromData(
      [
        [1, 5, 5],
        [2, 0, -1],
      ],
      { device, requiresGrad: true },
    );
    const { values, indices } = x.max(1);
    expect(Array.from(await values.data())).toEqual([5, 2]);
    expect(Array.from(await indices.data())).toEqual([1, 0]);
    ops.sum(values).backward();
    expect(Array.from(await (x.grad as Tensor).data())).toEqual([0, 0.5, 0.5, 1, 0, 0]);
  });

  it('sums int32 tensors exactly into int32', async () => {
    const x = intTensorOf([3, -7, 11, 100000, 5, 6], [2, 3], device);
    const s = ops.sum(x, 1);
    expect(s.dtype).toBe('int32');
    expect(Array.from(await s.data())).toEqual([7, 100011]);
    expect(Array.from(await ops.argmax(x, 1).data())).toEqual([2, 0]);
  });

  it('refuses the mean of an int tensor and says so', () => {
    const x = intTensorOf([1, 2], [2], device);
    expect(() => ops.mean(x)).toThrow('mean: expected a float32 input, got int32');
  });

  it('sumTo undoes broadcasting', async () => {
    const r = randomRef([2, 3, 4], rng(9));
    const s = ops.sumTo(tensorOf(r, device), [3, 1]);
    expect([...s.shape]).toEqual([3, 1]);
    const expected = [0, 1, 2].map((j) => {
      let t = 0;
      for (let i = 0; i < 24; i++) if (unravel(i, [2, 3, 4])[1] === j) t += r.data[i];
      return t;
    });
    const got = Array.from(await s.data());
    got.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 4));
  });
});
