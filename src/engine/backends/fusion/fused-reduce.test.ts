/**
 * A reduction at the end of a fused chain (chain.ts `tryReduce`, the backends' `fusedReduce`):
 * sums, means, maxima and minima of element-wise chains give the unfused path's values (bit for
 * bit on the CPU, within float32 rounding on WebGPU) and a float64 reference's, in one kernel
 * fewer; on WebGPU in both row modes and with the pass over partial results of a long row.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '../../ops';
import type { Tensor } from '../../tensor';
import { testDevices } from '../../testing/devices';
import { expectClose, randomRef, rng, tensorOf } from '../../testing/harness';
import { ravel, ref, unravel, type Ref } from '../../testing/reference';
import { WebGPUBackend } from '../webgpu';
import type { RowMode } from '../webgpu/variants';
import { restoreAfterEach, runCounted as run } from './test-support';

const devices = await testDevices();
restoreAfterEach(devices);

/** Reduces `r` over `dims` in float64 with `f` (start value `init`), keeping no dims. */
function reduceRef(r: Ref, dims: number[], init: number, f: (acc: number, v: number) => number) {
  const outShape = r.shape.filter((_, d) => !dims.includes(d));
  const size = outShape.reduce((a, b) => a * b, 1);
  const out = new Float64Array(size).fill(init);
  for (let i = 0; i < r.data.length; i++) {
    const index = unravel(i, r.shape).filter((_, d) => !dims.includes(d));
    const o = ravel(index, outShape);
    out[o] = f(out[o], r.data[i]);
  }
  return ref(outShape, out);
}

/** (a - b)² · c + 0.5 over a's shape, b and c broadcast, in float64. */
function chainRef(a: Ref, b: Ref, c: Ref): Ref {
  const out = new Float64Array(a.data.length);
  for (let i = 0; i < out.length; i++) {
    const index = unravel(i, a.shape);
    const at = (r: Ref) => {
      const lead = a.shape.length - r.shape.length;
      return r.data[
        ravel(
          r.shape.map((s, d) => (s === 1 ? 0 : index[d + lead])),
          r.shape,
        )
      ];
    };
    out[i] = (a.data[i] - at(b)) ** 2 * at(c) + 0.5;
  }
  return ref(a.shape, out);
}

describe.each(devices.map((d) => [d.name, d] as const))('fused reductions on %s', (_, device) => {
  const modes: (RowMode | undefined)[] =
    device.realBackend instanceof WebGPUBackend ? ['thread', 'workgroup'] : [undefined];

  it.each(
    modes.flatMap((mode) =>
      [
        { shape: [7], dims: undefined as number[] | undefined },
        { shape: [33, 65], dims: [1] },
        { shape: [4099, 1], dims: [0] },
        { shape: [5, 1, 9], dims: [1, 2] },
        { shape: [70001], dims: [0] },
      ].map((c) => ({ ...c, mode })),
    ),
  )('sum, mean, amax, amin of a chain over $shape dims $dims (mode $mode)', async (c) => {
    const backend = device.realBackend;
    if (backend instanceof WebGPUBackend) backend.overrides.reduce = c.mode;
    const random = rng(c.shape.reduce((a, b) => a * 7 + b, 3));
    const ra = randomRef(c.shape, random);
    const rb = randomRef(c.shape.slice(-1), random);
    const rc = randomRef([1], random);
    const a = tensorOf(ra, device).keep();
    const b = tensorOf(rb, device).keep();
    const cc = tensorOf(rc, device).keep();
    const dims = c.dims ?? c.shape.map((_, d) => d);
    const chain = () => ops.add(ops.mul(ops.square(ops.sub(a, b)), cc), 0.5);
    const cases: [string, () => Tensor, (acc: number, v: number) => number, number][] = [
      ['sum', () => ops.sum(chain(), c.dims), (s, v) => s + v, 0],
      ['amax', () => ops.amax(chain(), dims), (m, v) => Math.max(m, v), -Infinity],
      ['amin', () => ops.amin(chain(), dims), (m, v) => Math.min(m, v), Infinity],
    ];
    const expected = chainRef(ra, rb, rc);
    for (const [name, fn, f, init] of cases) {
      const unfused = await run(device, false, () => [fn()]);
      const fused = await run(device, true, () => [fn()]);
      const want = reduceRef(expected, dims, init, f);
      const tolerance = name === 'sum' ? 1e-5 : 1e-6;
      expectClose(fused.values[0], want.data, `${name} fused vs float64`, tolerance);
      if (device.kind === 'cpu') expect(fused.values[0]).toEqual(unfused.values[0]);
      else expectClose(fused.values[0], unfused.values[0], `${name} fused vs unfused`, 1e-6);
      // The chain's four kernels and the reduction's (one, or two passes) become one kernel
      // (or two): exactly four fewer.
      expect(unfused.kernels - fused.kernels).toBe(4);
    }
    // A mean is a sum and a scaling: the sum joins the chain.
    const mean = await run(device, true, () => [ops.mean(chain(), c.dims)]);
    const count = dims.reduce((n, d) => n * c.shape[d], 1);
    const sum = reduceRef(expected, dims, 0, (s, v) => s + v);
    expectClose(
      mean.values[0],
      sum.data.map((v) => v / count),
      'mean vs float64',
      1e-5,
    );
    for (const t of [a, b, cc]) t.dispose();
  });

  it('a chain whose values are also kept is written and reduced in the same kernel', async () => {
    const random = rng(5);
    const ra = randomRef([300, 7], random);
    const rb = randomRef([7], random);
    const both = (fused: boolean) =>
      run(device, fused, () => {
        const a = tensorOf(ra, device);
        const d = ops.sub(a, tensorOf(rb, device));
        const sq = ops.square(d);
        // The user holds d and sq: the fused kernel writes both and sums sq's rows.
        return [d, sq, ops.sum(sq, [1])];
      });
    const unfused = await both(false);
    const fused = await both(true);
    const d = ra.data.map((v, i) => v - rb.data[i % 7]);
    expectClose(fused.values[0], d, 'kept difference', 1e-6);
    expectClose(
      fused.values[1],
      d.map((v) => v * v),
      'kept square',
      1e-6,
    );
    const rows = Array.from({ length: 300 }, (_, r) =>
      d.slice(r * 7, r * 7 + 7).reduce((s, v) => s + v * v, 0),
    );
    expectClose(fused.values[2], rows, 'row sums', 1e-5);
    if (device.kind === 'cpu') expect(fused.values).toEqual(unfused.values);
    expect(unfused.kernels - fused.kernels).toBe(2);
  });

  it('a NaN wins its row of a max and a min, as in PyTorch, fused or not (rows cross CPU blocks)', async () => {
    const random = rng(13);
    const ra = randomRef([3, 3000], random);
    // Element 1500 of row 1 (flat 4500): the row spans the CPU's blocks 1 and 2 (2048 each).
    ra.data[4500] = NaN;
    const go = (fused: boolean) =>
      run(device, fused, () => {
        const e = ops.add(ops.mul(tensorOf(ra, device), 2), 1);
        return [ops.amax(e, [1]), ops.amin(e, [1])];
      });
    const unfused = await go(false);
    const fused = await go(true);
    for (const [k, pick] of [Math.max, Math.min].entries()) {
      const values = Array.from(fused.values[k]);
      expect(Number.isNaN(values[1])).toBe(true);
      const rows = [0, 2].map((r) =>
        pick(...Array.from(ra.data.slice(r * 3000, r * 3000 + 3000), (v) => 2 * v + 1)),
      );
      expectClose(Float64Array.of(values[0], values[2]), rows, `rows 0 and 2 (${pick.name})`, 1e-6);
      expect(fused.values[k]).toEqual(unfused.values[k]);
    }
    expect(fused.kernels).toBeLessThan(unfused.kernels);
  });

  it('a reduction the chain cannot take runs after it, unchanged', async () => {
    const random = rng(9);
    const ra = randomRef([6, 5], random);
    const go = (fused: boolean) =>
      run(device, fused, () => {
        const e = ops.exp(ops.mul(tensorOf(ra, device), 0.5));
        // Along dim 0 a row is not a run of consecutive elements; an argmax has no fused form.
        return [ops.sum(e, [0]), ops.cast(ops.argmax(e, 1), 'float32')];
      });
    const unfused = await go(false);
    const fused = await go(true);
    const e = ra.data.map((v) => Math.exp(v * 0.5));
    const columns = [0, 1, 2, 3, 4].map((j) =>
      [0, 1, 2, 3, 4, 5].reduce((s, i) => s + e[i * 5 + j], 0),
    );
    expectClose(fused.values[0], columns, 'column sums', 1e-5);
    expect(fused.values[1]).toEqual(unfused.values[1]);
    expect(fused.kernels).toBe(unfused.kernels - 1);
  });
});
