import { describe, expect, it } from 'vitest';
import { createNodeGpuBackend } from '../../testing/node-gpu';
import {
  createTuneCache,
  matmulClassKey,
  memoryStore,
  pickFastest,
  proxyShape,
  TuneCache,
  type MatmulClassInput,
} from './autotune';
import type { WebGPUBackend } from './index';
import { agrees, tuningMacs } from './matmul-tune';
import { randomFloats, rng } from './test-support';
import { matmulCandidates } from './variants';

/** A [1, rows, cols] row-major view on `gpu` holding `data`, written now or once it arrives. */
function matrixView(
  gpu: WebGPUBackend,
  rows: number,
  cols: number,
  data: Float32Array | Promise<Float32Array>,
) {
  const buffer = gpu.allocate(rows * cols * 4);
  if (data instanceof Float32Array) gpu.write(buffer, data);
  else gpu.writeAsync(buffer, data);
  return {
    buffer,
    dtype: 'float32' as const,
    shape: [1, rows, cols],
    strides: [rows * cols, cols, 1],
    offset: 0,
  };
}

/** Checks `cells` of `got`, the product of A [m, k] and B [k, n], against float64 sums. */
function expectProductAt(
  got: Float32Array | Int32Array,
  [A, B]: [Float32Array, Float32Array],
  k: number,
  n: number,
  cells: [number, number][],
  digits: number,
): void {
  for (const [i, j] of cells) {
    let sum = 0;
    for (let t = 0; t < k; t++) sum += A[i * k + t] * B[t * n + j];
    expect(got[i * n + j]).toBeCloseTo(sum, digits);
  }
}

const square: MatmulClassInput = { batch: 1, m: 512, n: 512, k: 512, aLayout: 'k', bLayout: 'n' };

describe('autotuner bookkeeping', () => {
  it('puts products of nearby sizes and the same layout in one class, others apart', () => {
    expect(matmulClassKey(square)).toBe(matmulClassKey({ ...square, m: 300, n: 400, k: 257 }));
    expect(matmulClassKey(square)).not.toBe(matmulClassKey({ ...square, m: 1024 }));
    expect(matmulClassKey(square)).not.toBe(matmulClassKey({ ...square, aLayout: 'm' }));
    expect(matmulClassKey(square)).not.toBe(matmulClassKey({ ...square, batch: 8 }));
    expect(matmulClassKey({ ...square, batch: 8 })).not.toBe(
      matmulClassKey({ ...square, batch: 8, summed: true }),
    );
    // A product only the blocked family can run is tuned apart from the plain one.
    expect(matmulClassKey({ ...square, blockedOnly: true })).toBe(
      'mm|512x512x512|kn|single|blocked',
    );
    expect(matmulClassKey({ ...square, batch: 8, summed: true, blockedOnly: true })).toBe(
      matmulClassKey({ ...square, batch: 8, summed: true }),
    );
  });

  it('times a capped proxy with a few batches', () => {
    expect(proxyShape({ ...square, m: 2000, n: 3000, k: 4096 })).toEqual({
      batch: 1,
      m: 512,
      n: 512,
      k: 512,
    });
    // A narrow output keeps the capped proxy's area (512² outputs), not its side.
    expect(proxyShape({ ...square, m: 10_000, n: 100, k: 4096 })).toEqual({
      batch: 1,
      m: 2621,
      n: 100,
      k: 512,
    });
    expect(proxyShape({ ...square, m: 32, n: 21_632, k: 1600 })).toMatchObject({ m: 32, n: 8192 });
    expect(proxyShape({ ...square, m: 300, n: 100, k: 64 })).toMatchObject({ m: 300, n: 100 });
    expect(proxyShape({ ...square, batch: 128, m: 9, n: 16, k: 25 }).batch).toBe(8);
    // A summed product (a CNN's second weight gradient, 64 x 800 x 81 per image) keeps 16 of
    // its 128 products, so the kernel's walk over the batch is part of what is timed; one with
    // few products keeps them all.
    const weightGrad = { ...square, batch: 128, m: 64, n: 800, k: 81, summed: true };
    expect(proxyShape(weightGrad)).toEqual({ batch: 16, m: 64, n: 800, k: 81 });
    expect(proxyShape({ ...weightGrad, batch: 3 }).batch).toBe(3);
    expect(proxyShape({ ...weightGrad, m: 8, n: 9, k: 25 }).batch).toBe(32);
  });

  it('accepts a variant whose slice of a product agrees with the default within rounding', () => {
    const want = Float32Array.from([3.5, -120.25, 0.001, 64]);
    expect(
      agrees(
        want.map((v) => v * (1 + 3e-7)),
        want,
      ),
    ).toBe(true);
    expect(agrees(Float32Array.from([3.5, -120.25, 0.02, 64]), want)).toBe(false);
    expect(agrees(Float32Array.from([3.5, NaN, 0.001, 64]), want)).toBe(false);
  });

  it('picks the fastest correct candidate, never a wrong or untimed one', () => {
    expect(
      pickFastest([
        { variant: 'tiled', ns: 10, correct: false },
        { variant: 'register', ns: 30, correct: true },
        { variant: 's8x8@8x8', ns: 20, correct: true },
        { variant: 'q8x8@8x8', ns: Infinity, correct: true },
      ]),
    ).toBe('s8x8@8x8');
    expect(pickFastest([{ variant: 'tiled', ns: 1, correct: false }])).toBeNull();
  });

  it('caches choices, persists them, reloads known ones and ignores stale names', async () => {
    const store = memoryStore({ 'mm|old': 'register', 'mm|stale': 'q99x99@1x1' });
    const cache = new TuneCache(store, { mm: ['register', 's8x8@8x8'] });
    await cache.preload();
    expect(cache.get('mm|old')).toBe('register');
    expect(cache.get('mm|stale')).toBeUndefined();
    expect(cache.needsTuning('mm|new')).toBe(true);
    let finish = () => {};
    cache.track('mm|new', new Promise<void>((resolve) => (finish = resolve)));
    // While a run is in flight the class is not tuned twice.
    expect(cache.needsTuning('mm|new')).toBe(false);
    cache.choose('mm|new', 's8x8@8x8');
    finish();
    await cache.settled();
    expect(cache.get('mm|new')).toBe('s8x8@8x8');
    expect(store.entries['mm|new']).toBe('s8x8@8x8');
    // A new session with the same store starts tuned.
    const again = new TuneCache(store, { mm: ['register', 's8x8@8x8'] });
    await again.preload();
    expect(again.get('mm|new')).toBe('s8x8@8x8');
    expect(again.needsTuning('mm|new')).toBe(false);
  });

  it('starts a run once a class has done the work of its run, or at once when tuning at first use', () => {
    const cache = createTuneCache(memoryStore(), false);
    expect(cache.policy).toBe('amortized');
    // A run of 100 units: ops of 30 reach it at the fourth (120), not the third (90).
    expect([1, 2, 3].map(() => cache.due('mm|a', 30, 100))).toEqual([false, false, false]);
    expect(cache.due('mm|a', 30, 100)).toBe(true);
    // Classes count apart; one op as big as the run is due at once.
    expect(cache.due('mm|b', 100, 100)).toBe(true);
    // A class being tuned, chosen or abandoned is never due again.
    cache.track('mm|a', new Promise<void>(() => undefined));
    expect(cache.due('mm|a', 1000, 100)).toBe(false);
    cache.choose('mm|b', 'register');
    expect(cache.due('mm|b', 1000, 100)).toBe(false);
    cache.abandon('mm|c');
    expect(cache.due('mm|c', 1000, 100)).toBe(false);
    cache.policy = 'first-use';
    expect(cache.due('mm|d', 1, 1e12)).toBe(true);
  });

  it('holds every family in one store, validating stored values per family', async () => {
    const store = memoryStore({
      'mm|a': 's8x8@8x8',
      'reduce|64x1024|contiguous': 'workgroup',
      'softmax|8x8192|strided': 'thread',
      // Values of another family, unknown values and unknown families are all ignored.
      'reduce|1x4096|contiguous': 's8x8@8x8',
      'softmax|1x4096|contiguous': 'warp',
      'mm|b': 'thread',
      'conv|x': 'thread',
      nobar: 'thread',
    });
    const cache = createTuneCache(store, false);
    await cache.preload();
    expect(Object.fromEntries(cache.entries())).toEqual({
      'mm|a': 's8x8@8x8',
      'reduce|64x1024|contiguous': 'workgroup',
      'softmax|8x8192|strided': 'thread',
    });
    expect(cache.needsTuning('reduce|1x4096|contiguous')).toBe(true);
    cache.choose('reduce|1x4096|contiguous', 'thread');
    expect(store.entries['reduce|1x4096|contiguous']).toBe('thread');
    // An abandoned class is neither chosen, stored, nor tuned again this session.
    cache.abandon('softmax|1x4096|contiguous');
    expect(cache.needsTuning('softmax|1x4096|contiguous')).toBe(false);
    expect(cache.get('softmax|1x4096|contiguous')).toBeUndefined();
    expect(store.entries['softmax|1x4096|contiguous']).toBe('warp');
  });
});

const backend = await createNodeGpuBackend();

describe.skipIf(!backend)('autotuner on this adapter', () => {
  const gpu = backend as WebGPUBackend;
  // These tests look at a tuning run itself: it starts at a class's first product.
  gpu?.setTuningPolicy('first-use');

  it('tunes an unseen class once: times every candidate, checks results, caches the fastest', async () => {
    const m = 192;
    const k = 160;
    const n = 96;
    const pattern = (rows: number, cols: number) =>
      Float32Array.from({ length: rows * cols }, (_, i) => ((i % 13) - 6) / 7);
    const view = (rows: number, cols: number) => matrixView(gpu, rows, cols, pattern(rows, cols));
    const a = view(m, k);
    const b = view(k, n);
    const out = view(m, n);
    gpu.matmul(a, b, out);
    await gpu.tuned();
    const runs = gpu.context.tuneLog;
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run.key).toBe(matmulClassKey({ batch: 1, m, n, k, aLayout: 'k', bLayout: 'n' }));
    expect(run.results.map((r) => r.variant)).toEqual(
      matmulCandidates(gpu.device.features.has('subgroups')),
    );
    // Every kernel variant computes the same product, and each was timed.
    for (const r of run.results) {
      expect(r.correct, r.variant).toBe(true);
      expect(r.ns, r.variant).toBeGreaterThan(0);
    }
    const fastest = Math.min(...run.results.map((r) => r.ns));
    const chosen = gpu.context.tuner.get(run.key);
    expect(run.results.find((r) => r.variant === chosen)?.ns).toBe(fastest);
    // The same class again (another size in its buckets) uses the choice without re-tuning.
    gpu.matmul(view(200, 150), view(150, 90), view(200, 90));
    await gpu.tuned();
    expect(gpu.context.tuneLog).toHaveLength(1);
    const host = await gpu.read(out.buffer, 'float32', 0, m * n);
    // Spot-check the product itself against a float64 reference.
    const cells: [number, number][] = [
      [0, 0],
      [m - 1, n - 1],
      [77, 31],
    ];
    expectProductAt(host, [pattern(m, k), pattern(k, n)], k, n, cells, 3);
  });

  it('under the amortized policy, runs the default until the class has done the work of its run, then queues it', async () => {
    const fresh = (await createNodeGpuBackend())!;
    const [m, k, n] = [192, 160, 96];
    const input: MatmulClassInput = { batch: 1, m, n, k, aLayout: 'k', bLayout: 'n' };
    const key = matmulClassKey(input);
    // Every candidate three times on the product itself (its own proxy, under the caps).
    const candidates = matmulCandidates(fresh.device.features.has('subgroups')).length;
    expect(tuningMacs(fresh.context, input)).toBe(candidates * 3 * m * n * k);
    const random = rng(5);
    const host = (rows: number, cols: number) => randomFloats(rows * cols, random, -1, 1);
    const [A, B] = [host(m, k), host(k, n)];
    const [a, b] = [matrixView(fresh, m, k, A), matrixView(fresh, k, n, B)];
    const out = matrixView(fresh, m, n, new Float32Array(m * n));
    for (let i = 1; i < candidates * 3; i++) fresh.matmul(a, b, out);
    await fresh.tuned();
    expect(fresh.context.tuneLog).toHaveLength(0);
    expect(fresh.context.tuner.needsTuning(key)).toBe(true);
    // The last product before the run's worth queues it, to be timed in slices between later
    // products (tune-slices.test.ts), not all at once in this product's batch.
    fresh.matmul(a, b, out);
    await fresh.tuned();
    expect(fresh.context.slices.has(key)).toBe(true);
    expect(fresh.context.tuner.needsTuning(key)).toBe(false);
    expect(fresh.context.slices.slices).toBe(0);
    expect(fresh.context.tuneLog).toHaveLength(0);
    // The default's product, checked against float64.
    const got = await fresh.read(out.buffer, 'float32', 0, m * n);
    const cells: [number, number][] = [
      [0, 0],
      [m - 1, n - 1],
      [101, 57],
    ];
    expectProductAt(got, [A, B], k, n, cells, 4);
  });

  it('tunes behind host data still on its way (submits held back), then reads fine', async () => {
    const fresh = (await createNodeGpuBackend())!;
    fresh.setTuningPolicy('first-use');
    const data = (rows: number, cols: number) =>
      Float32Array.from({ length: rows * cols }, (_, i) => ((i % 11) - 5) / 9);
    const view = (rows: number, cols: number, host: Promise<Float32Array> | Float32Array) =>
      matrixView(fresh, rows, cols, host);
    // A's data arrives later: every submit waits for it, the tuning run's included.
    let arrive: (host: Float32Array) => void = () => undefined;
    const a = view(192, 160, new Promise<Float32Array>((resolve) => (arrive = resolve)));
    const b = view(160, 96, data(160, 96));
    const out = view(192, 96, new Float32Array(192 * 96));
    fresh.matmul(a, b, out);
    const tuned = fresh.tuned();
    setTimeout(() => arrive(data(192, 160)), 300);
    await tuned;
    const [run] = fresh.context.tuneLog;
    for (const r of run.results) expect(r.correct, r.variant).toBe(true);
    const host = await fresh.read(out.buffer, 'float32', 0, 192 * 96);
    expectProductAt(host, [data(192, 160), data(160, 96)], 160, 96, [[77, 31]], 3);
  });
});
