/**
 * Products and several sums inside one fused chain (products.ts, chain.ts `addReduction`, the
 * backends' `fusedReduce` with several reductions): values match a float64 reference and the
 * unfused path on random inputs, on every test device, in fewer kernels; a product that cannot
 * join runs as its own kernel, unchanged.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '../../ops';
import { testDevices } from '../../testing/devices';
import { expectClose, randomRef, rng, tensorOf } from '../../testing/harness';
import type { Ref } from '../../testing/reference';
import { WebGPUBackend } from '../webgpu';
import type { RowMode } from '../webgpu/variants';
import { restoreAfterEach, runCounted as run } from './test-support';

const devices = await testDevices();
restoreAfterEach(devices);

/** [rows, cols] element (i, j) of a row-major float64 reference. */
const at = (r: Ref, i: number, j: number) => r.data[i * r.shape[1] + j];

/** a @ b in float64 for 2-D references. */
function matmulRef(a: Ref, b: Ref): Float64Array {
  const [m, k] = a.shape;
  const n = b.shape[1];
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += at(a, i, p) * at(b, p, j);
      out[i * n + j] = s;
    }
  }
  return out;
}

describe.each(devices.map((d) => [d.name, d] as const))('products in chains on %s', (_, device) => {
  const modes: (RowMode | undefined)[] =
    device.realBackend instanceof WebGPUBackend ? ['thread', 'workgroup'] : [undefined];
  // WebGPU takes products into chains; the CPU runs them as its own (faster) product kernels.
  const products = device.capability('fusionLimits')?.products ?? false;

  it.each([
    { m: 7, k: 1, n: 5 },
    { m: 1023, k: 2, n: 1 },
    { m: 33, k: 3, n: 4 },
  ])('a product with K = $k is steps of the chain after it ($m × $n)', async ({ m, k, n }) => {
    // K = 3 reads six views, WebGPU's most for one chain: c's add then starts a second kernel.
    const limited = !products || (device.kind !== 'cpu' && k === 3);
    const random = rng(m * 10 + k);
    const [ra, rw, rc] = [
      randomRef([m, k], random),
      randomRef([n, k], random),
      randomRef([n], random),
    ];
    // relu(a @ wᵀ + c): the product reads w through a transposed view, like a linear layer.
    const go = (fused: boolean) =>
      run(device, fused, () => {
        const a = tensorOf(ra, device);
        const w = tensorOf(rw, device);
        return [ops.relu(ops.add(ops.matmul(a, ops.transpose(w, 0, 1)), tensorOf(rc, device)))];
      });
    const unfused = await go(false);
    const fused = await go(true);
    const wt = { shape: [k, n], data: new Float64Array(k * n) };
    for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) wt.data[p * n + j] = at(rw, j, p);
    const product = matmulRef(ra, wt);
    const want = product.map((v, i) => Math.max(0, v + rc.data[i % n]));
    expectClose(fused.values[0], want, 'fused vs float64', 1e-5);
    expectClose(fused.values[0], unfused.values[0], 'fused vs unfused', 1e-5);
    // The product, the add and the relu are one kernel (or the product and the chain after it).
    expect([unfused.kernels, fused.kernels]).toEqual([3, limited ? 2 : 1]);
  });

  it('a batched product with a broadcast operand and K = 2', async () => {
    const random = rng(77);
    const [ra, rb] = [randomRef([3, 5, 2], random), randomRef([2, 6], random)];
    const go = (fused: boolean) =>
      run(device, fused, () => [
        ops.mul(ops.matmul(tensorOf(ra, device), tensorOf(rb, device)), 2),
      ]);
    const fused = await go(true);
    const unfused = await go(false);
    const want = new Float64Array(3 * 5 * 6);
    for (let b = 0; b < 3; b++) {
      const slice = { shape: [5, 2], data: ra.data.slice(b * 10, b * 10 + 10) };
      matmulRef(slice, rb).forEach((v, i) => (want[b * 30 + i] = 2 * v));
    }
    expectClose(fused.values[0], want, 'fused vs float64', 1e-5);
    expectClose(fused.values[0], unfused.values[0], 'fused vs unfused', 1e-5);
    expect(fused.kernels).toBe(products ? 1 : 2);
  });

  it.each(
    modes.flatMap((mode) =>
      [300, 5001].flatMap((rows) =>
        [true, false].map((transposed) => ({ rows, mode, transposed })),
      ),
    ),
  )(
    "a weight's gradient and a bias's: three sums of one chain ($rows rows, xᵀ @ g: $transposed, mode $mode)",
    async ({ rows, mode, transposed }) => {
      const backend = device.realBackend;
      if (backend instanceof WebGPUBackend) backend.overrides.reduce = mode;
      const random = rng(rows);
      const [rx, rr] = [randomRef([rows, 2], random), randomRef([rows, 1], random)];
      // g = 2·r·0.25 is a chain step; xᵀ @ g ([2, 1]) or gᵀ @ x ([1, 2]) contracts it over the
      // chain, one sum per output element, and sum(g) is a third sum of the same chain.
      const go = (fused: boolean) =>
        run(device, fused, () => {
          const x = tensorOf(rx, device);
          const g = ops.mul(ops.mul(tensorOf(rr, device), 2), 0.25);
          const product = transposed
            ? ops.matmul(ops.transpose(x, 0, 1), g)
            : ops.matmul(ops.transpose(g, 0, 1), x);
          return [product, ops.sum(g, [0])];
        });
      const unfused = await go(false);
      const fused = await go(true);
      const g = rr.data.map((v) => 2 * v * 0.25);
      const column = (j: number) => g.reduce((s, v, i) => s + v * at(rx, i, j), 0);
      expectClose(fused.values[0], [column(0), column(1)], 'product vs float64', 1e-5);
      expectClose(fused.values[1], [g.reduce((s, v) => s + v, 0)], 'sum(g) vs float64', 1e-5);
      unfused.values.forEach((v, i) => expectClose(fused.values[i], v, `output ${i}`, 1e-5));
      // One kernel, and on WebGPU a pass over partial sums when the rows were cut into chunks.
      // The CPU runs g's chain, the product and the sum as three kernels.
      const chunked = rows > (mode === 'workgroup' ? 8192 : 1024);
      expect(fused.kernels).toBe(!products ? 3 : device.kind !== 'cpu' && chunked ? 2 : 1);
    },
  );

  it('five sums are more than one chain takes: the product then runs as its own kernel', async () => {
    const random = rng(8);
    const [rx, rr] = [randomRef([50, 4], random), randomRef([50, 1], random)];
    const fused = await run(device, true, () => {
      const g = ops.exp(tensorOf(rr, device));
      return [ops.sum(g, [0]), ops.matmul(ops.transpose(g, 0, 1), tensorOf(rx, device))];
    });
    const g = rr.data.map(Math.exp);
    const want = [0, 1, 2, 3].map((j) => g.reduce((s, v, i) => s + v * at(rx, i, j), 0));
    expectClose(fused.values[0], [g.reduce((s, v) => s + v, 0)], 'sum vs float64', 1e-5);
    expectClose(fused.values[1], want, 'product vs float64', 1e-5);
    expect(fused.kernels).toBeGreaterThanOrEqual(2);
  });

  it.each(modes)('two row sums of one chain over [37, 300] (mode %s)', async (mode) => {
    const backend = device.realBackend;
    if (backend instanceof WebGPUBackend) backend.overrides.reduce = mode;
    const random = rng(37);
    const [ra, rb] = [randomRef([37, 300], random), randomRef([300], random)];
    const go = (fused: boolean) =>
      run(device, fused, () => {
        const a = tensorOf(ra, device);
        const d = ops.sub(a, tensorOf(rb, device));
        // Row sums of d and of d²: the second joins the first's chain as another lane.
        return [ops.sum(d, [1]), ops.sum(ops.square(d), [1])];
      });
    const unfused = await go(false);
    const fused = await go(true);
    const rowsOf = (f: (v: number) => number) =>
      Array.from({ length: 37 }, (_, r) => {
        let s = 0;
        for (let j = 0; j < 300; j++) s += f(at(ra, r, j) - rb.data[j]);
        return s;
      });
    expectClose(
      fused.values[0],
      rowsOf((v) => v),
      'row sums of d',
      1e-5,
    );
    expectClose(
      fused.values[1],
      rowsOf((v) => v * v),
      'row sums of d²',
      1e-5,
    );
    if (device.kind === 'cpu') expect(fused.values).toEqual(unfused.values);
    // sub, square and the two sums: one kernel, plus the pass that orders the lanes on WebGPU.
    expect(fused.kernels).toBe(device.kind === 'cpu' ? 1 : 2);
  });

  it.each(modes.flatMap((mode) => [300, 5001].map((rows) => ({ rows, mode }))))(
    "a linear layer's squared error summed in its chain ($rows rows, mode $mode)",
    async ({ rows, mode }) => {
      const backend = device.realBackend;
      if (backend instanceof WebGPUBackend) backend.overrides.reduce = mode;
      const random = rng(rows + 11);
      const [rx, rw, rb, ry] = [
        randomRef([rows, 2], random),
        randomRef([2, 1], random),
        randomRef([1], random),
        randomRef([rows, 1], random),
      ];
      // sum((x @ w + b - y)²): x's columns are strided inputs, w's two elements and b broadcast
      // ones, each read once per invocation before the reduction's loop (fused.ts chainStart).
      const go = (fused: boolean) =>
        run(device, fused, () => {
          const x = tensorOf(rx, device);
          const pred = ops.add(ops.matmul(x, tensorOf(rw, device)), tensorOf(rb, device));
          return [ops.sum(ops.square(ops.sub(pred, tensorOf(ry, device))))];
        });
      const unfused = await go(false);
      const fused = await go(true);
      let want = 0;
      for (let i = 0; i < rows; i++) {
        const p = at(rx, i, 0) * rw.data[0] + at(rx, i, 1) * rw.data[1] + rb.data[0];
        want += (p - ry.data[i]) ** 2;
      }
      expectClose(fused.values[0], [want], 'fused vs float64', 1e-5);
      expectClose(fused.values[0], unfused.values[0], 'fused vs unfused', 1e-5);
    },
  );

  it('a product whose K is too long for steps, and no chain step to contract, runs alone', async () => {
    const random = rng(4);
    const [ra, rb] = [randomRef([9, 8], random), randomRef([8, 3], random)];
    const fused = await run(device, true, () => [
      ops.exp(ops.matmul(tensorOf(ra, device), tensorOf(rb, device))),
    ]);
    const want = matmulRef(ra, rb).map(Math.exp);
    expectClose(fused.values[0], want, 'fused vs float64', 1e-5);
    expect(fused.kernels).toBe(2);
  });
});
