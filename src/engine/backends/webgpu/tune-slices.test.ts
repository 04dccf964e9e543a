import { describe, expect, it } from 'vitest';
import { createNodeGpuBackend } from '../../testing/node-gpu';
import { matmulClassKey, type MatmulClassInput } from './autotune';
import type { WebGPUBackend } from './index';
import { randomFloats, rng } from './test-support';
import { matmulCandidates } from './variants';

const first = await createNodeGpuBackend();

/** A [1, rows, cols] row-major view on `gpu` holding `data`. */
function matrixView(gpu: WebGPUBackend, rows: number, cols: number, data: Float32Array) {
  const buffer = gpu.allocate(rows * cols * 4);
  gpu.write(buffer, data);
  const shape = [1, rows, cols];
  return { buffer, dtype: 'float32' as const, shape, strides: [rows * cols, cols, 1], offset: 0 };
}

const [m, k, n] = [192, 160, 96];
const input: MatmulClassInput = { batch: 1, m, n, k, aLayout: 'k', bLayout: 'n' };
const key = matmulClassKey(input);

/**
 * A fresh backend (its own device and tuner) under the default policy, with one product's views.
 * It times three matmul candidates, not all: each compiles for 1–2.5 s on a CPU emulation.
 */
async function setup(seed: number) {
  const gpu = (await createNodeGpuBackend())!;
  const candidates = matmulCandidates(gpu.device.features.has('subgroups')).slice(0, 3);
  Object.assign(gpu.context, { candidates });
  // No budget: these tests count slices, whatever compiles cost on this host; and slices only
  // after ops (none in idle time), except where a test says otherwise.
  gpu.context.slices.classBudgetMs = Infinity;
  gpu.context.slices.idleMs = Infinity;
  const random = rng(seed);
  const A = randomFloats(m * k, random, -1, 1);
  const B = randomFloats(k * n, random, -1, 1);
  const a = matrixView(gpu, m, k, A);
  const b = matrixView(gpu, k, n, B);
  const out = matrixView(gpu, m, n, new Float32Array(m * n));
  return { gpu, A, B, product: () => gpu.matmul(a, b, out), out, candidates };
}

/** Largest error of sampled cells of `got` against a float64 product of A and B. */
function worstError(got: Float32Array | Int32Array, A: Float32Array, B: Float32Array): number {
  let worst = 0;
  for (let s = 0; s < 64; s++) {
    const [i, j] = [(s * 37) % m, (s * 53) % n];
    let sum = 0;
    for (let t = 0; t < k; t++) sum += A[i * k + t] * B[t * n + j];
    worst = Math.max(worst, Math.abs(got[i * n + j] - sum));
  }
  return worst;
}

describe.skipIf(!first)('tuning in slices (the default policy)', () => {
  it('times one candidate run at most after each product, then switches to a correct winner', async () => {
    const { gpu, A, B, product, out, candidates } = await setup(21);
    // Every op may pay for a slice: the test counts slices per op, not their share of its time.
    const slices = gpu.context.slices;
    slices.share = 100;
    let ops = 0;
    let queuedAt = -1;
    while (!gpu.context.tuner.get(key) && ops < 200) {
      const before = slices.slices + slices.compiles;
      product();
      ops++;
      // (Waits for the slice or compile this op started; a compile needs the event loop.)
      await gpu.tuned();
      // One slice, or one candidate's compile, per op at most.
      expect(slices.slices + slices.compiles - before).toBeLessThanOrEqual(1);
      if (queuedAt < 0 && slices.has(key)) queuedAt = ops;
    }
    // Queued once the class had done the work of its run (ski rental), then tuned slice by slice.
    expect(queuedAt).toBe(candidates.length * 3);
    expect(gpu.context.tuner.get(key)).toBeDefined();
    const [run] = gpu.context.tuneLog;
    expect(gpu.context.tuneLog).toHaveLength(1);
    expect(run.results.map((r) => r.variant)).toEqual(candidates);
    for (const r of run.results) expect(r.correct, r.variant).toBe(true);
    // At least one run of every candidate, at most three: one slice each.
    expect(slices.slices).toBeGreaterThanOrEqual(candidates.length);
    expect(slices.slices).toBeLessThanOrEqual(3 * candidates.length);
    const fastest = Math.min(...run.results.map((r) => r.ns));
    expect(run.results.find((r) => r.variant === gpu.context.tuner.get(key))?.ns).toBe(fastest);
    // The winner's product, against float64.
    product();
    expect(worstError(await gpu.read(out.buffer, 'float32', 0, m * n), A, B)).toBeLessThan(1e-3);
  });

  it('gives up on a class past its budget, and on every class past the session budget', async () => {
    const { gpu, product, candidates } = await setup(22);
    const slices = gpu.context.slices;
    slices.share = 100;
    slices.sessionBudgetMs = 1e-6;
    for (let i = 0; i < candidates.length * 3 + 10; i++) {
      product();
      await gpu.tuned();
    }
    // One slice (or one compile) spent the budget: the class keeps its default, not sliced again.
    expect(slices.slices + slices.compiles).toBe(1);
    expect(gpu.context.tuner.needsTuning(key)).toBe(false);
    expect(gpu.context.tuner.get(key)).toBeUndefined();
    expect(gpu.context.tuneLog).toHaveLength(0);
    // Another class, once due, is given up without a slice.
    const other = matrixView(gpu, 256, 256, randomFloats(256 * 256, rng(3), -1, 1));
    const otherKey = matmulClassKey({ ...input, m: 256, n: 256, k: 256 });
    const otherOut = matrixView(gpu, 256, 256, new Float32Array(256 * 256));
    for (let i = 0; i < candidates.length * 3 + 2; i++) {
      gpu.matmul(other, other, otherOut);
      await gpu.tuned();
    }
    expect(slices.slices + slices.compiles).toBe(1);
    expect(gpu.context.tuner.needsTuning(otherKey)).toBe(false);
    expect(gpu.context.tuner.get(otherKey)).toBeUndefined();
    // A timed run (timeit's warm-ups) still tunes it, whole, at first use.
    gpu.setTuningPolicy('first-use');
    product();
    await gpu.tuned();
    gpu.setTuningPolicy('amortized');
    expect(gpu.context.tuneLog.map((run) => run.key)).toEqual([key]);
    expect(gpu.context.tuner.get(key)).toBeDefined();
  });

  it('times slices in idle time, with no user op', async () => {
    const { gpu, product, candidates } = await setup(24);
    const slices = gpu.context.slices;
    // No credit from ops: every slice below runs because the user is idle.
    slices.share = 0;
    slices.idleMs = 5;
    for (let i = 0; i < candidates.length * 3; i++) product();
    // (The products are recorded synchronously: no idle time between them.)
    const dispatches = gpu.context.queue.dispatches;
    expect(slices.has(key)).toBe(true);
    expect(slices.slices).toBe(0);
    for (let wait = 0; wait < 600 && !gpu.context.tuner.get(key); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await gpu.tuned();
    }
    expect(gpu.context.tuner.get(key)).toBeDefined();
    expect(slices.slices).toBeGreaterThanOrEqual(candidates.length);
    // Only the slices' own dispatches (one per slice) and their checks ran meanwhile.
    expect(gpu.context.queue.dispatches - dispatches).toBe(slices.slices);
    for (const r of gpu.context.tuneLog[0].results) expect(r.correct, r.variant).toBe(true);
  });

  it('tunes a class waiting for slices whole at first use (timed runs stay honest)', async () => {
    const { gpu, product, candidates } = await setup(23);
    // No slices: the run waits in the queue.
    gpu.context.slices.share = 0;
    for (let i = 0; i < candidates.length * 3; i++) product();
    await gpu.tuned();
    expect(gpu.context.slices.has(key)).toBe(true);
    expect(gpu.context.tuneLog).toHaveLength(0);
    gpu.setTuningPolicy('first-use');
    product();
    await gpu.tuned();
    gpu.setTuningPolicy('amortized');
    expect(gpu.context.slices.slices + gpu.context.slices.compiles).toBe(0);
    expect(gpu.context.slices.has(key)).toBe(false);
    const [run] = gpu.context.tuneLog;
    expect(run.key).toBe(key);
    expect(run.results.map((r) => r.variant)).toEqual(candidates);
    for (const r of run.results) expect(r.correct && r.ns > 0, r.variant).toBe(true);
    expect(gpu.context.tuner.get(key)).toBeDefined();
  });
});
