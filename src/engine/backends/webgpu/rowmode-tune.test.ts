import { create, globals } from 'webgpu';
import { describe, expect, it } from 'vitest';
import { createTuneCache, memoryStore } from './autotune';
import type { TuningPolicy } from '../../backend';
import { createWebGPUBackend, WebGPUBackend } from './index';
import { extentOf, outputsAgree, rowModeClassKey, trialShape, type RowClass } from './rowmode-tune';
import { expectClose, randomFloats, rng, Workspace, type HostView } from './test-support';

describe('row-mode classes', () => {
  const cls: RowClass = { family: 'reduce', rows: 64, inner: 1000, contiguous: true };

  it('buckets rows and row length by powers of two, apart per family and layout', () => {
    expect(rowModeClassKey(cls)).toBe('reduce|64x1024|contiguous');
    expect(rowModeClassKey({ ...cls, rows: 40, inner: 513 })).toBe(rowModeClassKey(cls));
    expect(rowModeClassKey({ ...cls, rows: 65 })).toBe('reduce|128x1024|contiguous');
    expect(rowModeClassKey({ ...cls, contiguous: false })).toBe('reduce|64x1024|strided');
    expect(rowModeClassKey({ ...cls, family: 'softmax' })).toBe('softmax|64x1024|contiguous');
    expect(rowModeClassKey({ ...cls, rows: 1, inner: 5e7 })).toBe('reduce|1x1048576|contiguous');
  });

  it('times huge ops on a leading sub-block, cutting rows before row length', () => {
    expect(trialShape([64, 1000])).toEqual([64, 1000]);
    expect(trialShape([10_000, 1000])).toEqual([262, 1000]);
    expect(trialShape([3, 4000, 1000])).toEqual([1, 262, 1000]);
    expect(trialShape([2, 3_000_000])).toEqual([1, 1 << 18]);
    expect(trialShape([5, 7, 9], 100)).toEqual([1, 7, 9]);
  });

  it('finds the element range a strided view reads', () => {
    expect(extentOf([3, 4], [4, 1], 5)).toEqual({ first: 5, count: 12 });
    // Transposed, broadcast, and reversed (negative stride) dimensions.
    expect(extentOf([4, 3], [1, 4], 0)).toEqual({ first: 0, count: 12 });
    expect(extentOf([3, 7], [0, 1], 2)).toEqual({ first: 2, count: 7 });
    expect(extentOf([5], [-2], 8)).toEqual({ first: 0, count: 9 });
  });

  it('accepts rounding differences between modes but not wrong values', () => {
    const a = Float32Array.from([1000, -3.5, 1e-3, NaN, -Infinity]);
    const near = Float32Array.from([1000.01, -3.5001, 1.2e-3, NaN, -Infinity]);
    expect(outputsAgree(a, near, 'float32')).toBe(true);
    expect(outputsAgree(a, Float32Array.from([1000, -3.5, 3, NaN, -Infinity]), 'float32')).toBe(
      false,
    );
    expect(outputsAgree(a, Float32Array.from([1000, -3.5, 1e-3, 0, -Infinity]), 'float32')).toBe(
      false,
    );
    expect(outputsAgree(Int32Array.from([3, 9]), Int32Array.from([3, 9]), 'int32')).toBe(true);
    expect(outputsAgree(Int32Array.from([3, 9]), Int32Array.from([3, 8]), 'int32')).toBe(false);
  });
});

Object.assign(globalThis, globals);
const gpuApi = create([]);
// An adapter gives one device: each backend below asks for its own.
const adapter = await gpuApi.requestAdapter();

/**
 * A fresh backend over `store` (its own device and tuner, nothing shared between tests), tuning
 * a class at its first op unless `policy` says otherwise.
 */
async function fresh(
  store = memoryStore(),
  policy: TuningPolicy = 'first-use',
): Promise<WebGPUBackend> {
  const backend = await createWebGPUBackend((await gpuApi.requestAdapter())!, store);
  backend.setTuningPolicy(policy);
  return backend;
}

/** float64 row sums, maxima and argmaxima of a [rows, inner] view. */
function rowReference(x: HostView, rows: number, inner: number) {
  const [s0, s1] = x.view.strides;
  const sum = new Float64Array(rows);
  const max = new Float64Array(rows).fill(-Infinity);
  const argmax = new Float64Array(rows);
  const scale = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < inner; j++) {
      const v = x.host[x.view.offset + r * s0 + j * s1];
      sum[r] += v;
      scale[r] += Math.abs(v);
      if (v > max[r]) [max[r], argmax[r]] = [v, j];
    }
  }
  return { sum, max, argmax, scale };
}

function softmaxReference(x: HostView, rows: number, cols: number, log: boolean): Float64Array {
  const [s0, s1] = x.view.strides;
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const row = Array.from({ length: cols }, (_, c) => x.host[x.view.offset + r * s0 + c * s1]);
    const max = Math.max(...row);
    const total = row.reduce((acc, v) => acc + Math.exp(v - max), 0);
    row.forEach((v, c) => {
      out[r * cols + c] = log ? v - max - Math.log(total) : Math.exp(v - max) / total;
    });
  }
  return out;
}

/** Checks sum, max and argmax of a [rows, inner] view against float64 references. */
async function checkReduce(gpu: WebGPUBackend, ws: Workspace, x: HostView): Promise<void> {
  const [rows, inner] = x.view.shape;
  const ref = rowReference(x, rows, inner);
  const sum = ws.output('float32', [rows]);
  const max = ws.output('float32', [rows]);
  const arg = ws.output('int32', [rows]);
  gpu.reduce('sum', x.view, 1, sum);
  gpu.reduce('max', x.view, 1, max);
  gpu.reduce('argmax', x.view, 1, arg);
  const [gotSum, gotMax, gotArg] = await Promise.all([ws.read(sum), ws.read(max), ws.read(arg)]);
  for (let r = 0; r < rows; r++) {
    expect(Math.abs(gotSum[r] - ref.sum[r]), `sum of row ${r}`).toBeLessThanOrEqual(
      2e-6 * ref.scale[r] + 1e-6,
    );
  }
  expectClose(gotMax, ref.max, { rel: 0, abs: 0 });
  expectClose(gotArg, ref.argmax, { rel: 0, abs: 0 });
}

/** Checks softmax and log-softmax of a [rows, cols] view against float64 references. */
async function checkSoftmax(gpu: WebGPUBackend, ws: Workspace, x: HostView): Promise<void> {
  const [rows, cols] = x.view.shape;
  for (const log of [false, true]) {
    const out = ws.output('float32', [rows, cols]);
    gpu.softmax(x.view, out, log);
    expectClose(await ws.read(out), softmaxReference(x, rows, cols, log), {
      rel: 1e-5,
      abs: 1e-6,
    });
  }
}

/** Kernel labels of the dispatches `run` records (timestamp queries). */
async function dispatchLabels(gpu: WebGPUBackend, run: () => void): Promise<string[]> {
  const stop = gpu.profileDispatches();
  run();
  return (await stop()).map((t) => t.label);
}

describe.skipIf(!adapter)('row-mode tuning on this adapter', () => {
  it('tunes a reduce class once, caches and stores the fastest, stays correct throughout', async () => {
    const store = memoryStore();
    const gpu = await fresh(store);
    const ws = new Workspace(gpu);
    const random = rng(11);
    const x = ws.view(randomFloats(64 * 1000, random), [64, 1000]);
    const key = 'reduce|64x1024|contiguous';
    // Before: the first op starts the run and computes with the default.
    await checkReduce(gpu, ws, x);
    // During: another op of the class while the run may still be in flight.
    const during = ws.view(randomFloats(50 * 900, random), [50, 900]);
    await checkReduce(gpu, ws, during);
    await gpu.tuned();
    const runs = gpu.context.tuneLog.filter((run) => run.key === key);
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run.results.map((r) => r.variant)).toEqual(['thread', 'workgroup']);
    for (const r of run.results) {
      expect(r.correct, r.variant).toBe(true);
      expect(r.ns, r.variant).toBeGreaterThan(0);
      expect(Number.isFinite(r.ns), r.variant).toBe(true);
    }
    const fastest = run.results.reduce((a, b) => (b.ns < a.ns ? b : a)).variant;
    expect(Object.fromEntries(gpu.context.tuner.entries())[key]).toBe(fastest);
    expect(store.entries[key]).toBe(fastest);
    // After: the class uses the choice, without tuning again.
    await checkReduce(gpu, ws, ws.view(randomFloats(60 * 1000, random), [60, 1000]));
    const labels = await dispatchLabels(gpu, () => {
      gpu.reduce('sum', x.view, 1, ws.output('float32', [64]));
    });
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label.includes('WORKGROUP')).toBe(fastest === 'workgroup');
    await gpu.tuned();
    expect(gpu.context.tuneLog.filter((r) => r.key === key)).toHaveLength(1);
    ws.releaseAll();
  });

  it('under the amortized policy, queues a class once its ops have read what its run would, then tunes it in slices', async () => {
    const gpu = await fresh(memoryStore(), 'amortized');
    const ws = new Workspace(gpu);
    const random = rng(12);
    const key = 'reduce|64x1024|contiguous';
    // Each checkReduce is three ops of 64 x 1000 elements (sum, max, argmax), one class; the run
    // would read both modes' three runs of them: 2 * 3 * 64000 elements, so six ops' worth.
    const x = ws.view(randomFloats(64 * 1000, random), [64, 1000]);
    await checkReduce(gpu, ws, x);
    await gpu.tuned();
    expect(gpu.context.tuneLog.filter((run) => run.key === key)).toHaveLength(0);
    expect(gpu.context.tuner.needsTuning(key)).toBe(true);
    // Ops four to six: the sixth is due and queues the run; each op's result stays right.
    await checkReduce(gpu, ws, ws.view(randomFloats(64 * 1000, random), [64, 1000]));
    await gpu.tuned();
    expect(gpu.context.slices.has(key)).toBe(true);
    // Then a mode's run at a time after later ops (a slice per op at most), on the sixth op's
    // input (copied), until both modes have their runs.
    const slices = gpu.context.slices;
    slices.share = 100;
    slices.classBudgetMs = Infinity;
    slices.idleMs = Infinity;
    for (let op = 0; op < 60 && !gpu.context.tuner.get(key); op++) {
      const before = slices.slices + slices.compiles;
      await checkReduce(gpu, ws, ws.view(randomFloats(64 * 1000, random), [64, 1000]));
      await gpu.tuned();
      // checkReduce is three ops: each may be followed by one slice.
      expect(slices.slices + slices.compiles - before).toBeLessThanOrEqual(3);
    }
    const runs = gpu.context.tuneLog.filter((run) => run.key === key);
    expect(runs).toHaveLength(1);
    for (const r of runs[0].results) expect(r.correct && r.ns > 0, r.variant).toBe(true);
    expect(gpu.context.tuner.get(key)).toBeDefined();
    await checkReduce(gpu, ws, ws.view(randomFloats(64 * 1000, random), [64, 1000]));
    ws.releaseAll();
  });

  it('tunes an op above the trial cap on its leading rows, correct before and after', async () => {
    const gpu = await fresh();
    const ws = new Workspace(gpu);
    const random = rng(16);
    const x = ws.view(randomFloats(1100 * 1000, random), [1100, 1000]);
    await checkReduce(gpu, ws, x);
    await gpu.tuned();
    const [run] = gpu.context.tuneLog;
    expect(run.key).toBe('reduce|2048x1024|contiguous');
    for (const r of run.results) expect(r.correct && r.ns > 0, r.variant).toBe(true);
    await checkReduce(gpu, ws, x);
    ws.releaseAll();
  });

  it('tunes softmax classes apart from reduce, per layout', async () => {
    const gpu = await fresh();
    const ws = new Workspace(gpu);
    const random = rng(12);
    const data = randomFloats(40 * 300, random, 0.1, 20);
    const rowMajor = ws.view(data, [40, 300]);
    const transposed = ws.view(data, [40, 300], [1, 40]);
    await checkSoftmax(gpu, ws, rowMajor);
    await checkSoftmax(gpu, ws, transposed);
    await gpu.tuned();
    const chosen = Object.fromEntries(gpu.context.tuner.entries());
    expect(['thread', 'workgroup']).toContain(chosen['softmax|64x512|contiguous']);
    expect(['thread', 'workgroup']).toContain(chosen['softmax|64x512|strided']);
    expect(gpu.context.tuneLog.map((r) => r.key).sort()).toEqual([
      'softmax|64x512|contiguous',
      'softmax|64x512|strided',
    ]);
    for (const run of gpu.context.tuneLog) {
      for (const r of run.results)
        expect(r.correct && r.ns > 0, `${run.key} ${r.variant}`).toBe(true);
    }
    await checkSoftmax(gpu, ws, rowMajor);
    await checkSoftmax(gpu, ws, transposed);
    ws.releaseAll();
  });

  it('starts from stored choices without tuning, and ignores invalid stored values', async () => {
    const store = memoryStore({
      'reduce|64x1024|contiguous': 'workgroup',
      'softmax|64x512|contiguous': 'workgroup',
      'reduce|64x1024|strided': 'register',
    });
    const gpu = await fresh(store);
    const ws = new Workspace(gpu);
    const random = rng(13);
    const x = ws.view(randomFloats(64 * 1000, random), [64, 1000]);
    const s = ws.view(randomFloats(40 * 300, random, 0.1, 20), [40, 300]);
    // The stored modes are used from the first op (both defaults would be 'thread').
    const labels = await dispatchLabels(gpu, () => {
      gpu.reduce('max', x.view, 1, ws.output('float32', [64]));
      gpu.softmax(s.view, ws.output('float32', [40, 300]), false);
    });
    expect(labels.length).toBe(2);
    for (const label of labels) expect(label).toContain('WORKGROUP');
    await checkReduce(gpu, ws, x);
    await checkSoftmax(gpu, ws, s);
    // A strided class whose stored value is not a row mode is tuned as if nothing were stored.
    const columns = ws.view(randomFloats(1000 * 64, random), [64, 1000], [1, 64]);
    await checkReduce(gpu, ws, columns);
    await gpu.tuned();
    expect(gpu.context.tuneLog.map((r) => r.key)).toEqual(['reduce|64x1024|strided']);
    expect(['thread', 'workgroup']).toContain(store.entries['reduce|64x1024|strided']);
    ws.releaseAll();
  });

  it('does not tune with autotune off, nor ops below the size threshold', async () => {
    const gpu = await fresh();
    const ws = new Workspace(gpu);
    const random = rng(14);
    // 63 x 65 = 4095 elements: below the threshold, tuning on.
    await checkReduce(gpu, ws, ws.view(randomFloats(63 * 65, random), [63, 65]));
    await checkSoftmax(gpu, ws, ws.view(randomFloats(63 * 65, random), [63, 65]));
    await gpu.tuned();
    expect(gpu.context.tuneLog).toHaveLength(0);
    gpu.context.autotune = false;
    await checkReduce(gpu, ws, ws.view(randomFloats(64 * 1000, random), [64, 1000]));
    await checkSoftmax(gpu, ws, ws.view(randomFloats(40 * 300, random), [40, 300]));
    await gpu.tuned();
    expect(gpu.context.tuneLog).toHaveLength(0);
    expect(gpu.context.tuner.entries()).toHaveLength(0);
    ws.releaseAll();
  });

  it('tunes by wall clock on a device without timestamp queries, on a copy of the input', async () => {
    const device = await adapter!.requestDevice();
    expect(device.features.has('timestamp-query')).toBe(false);
    const gpu = new WebGPUBackend(device, adapter!.info, createTuneCache(memoryStore(), false));
    gpu.setTuningPolicy('first-use');
    expect(gpu.device).toBe(device);
    const ws = new Workspace(gpu);
    const random = rng(15);
    const data = randomFloats(16 * 3000, random);
    const buffer = gpu.allocate(data.byteLength);
    gpu.write(buffer, data);
    const x: HostView = {
      host: data,
      view: { buffer, dtype: 'float32', shape: [16, 3000], strides: [3000, 1], offset: 0 },
    };
    const sum = ws.output('float32', [16]);
    gpu.reduce('sum', x.view, 1, sum);
    // The runs are recorded later: freeing the input and destroying its memory right away must
    // not matter to them (they read a copy), or the device would report a destroyed buffer.
    gpu.release(buffer);
    gpu.emptyCache();
    const ref = rowReference(x, 16, 3000);
    const got = await ws.read(sum);
    for (let r = 0; r < 16; r++) {
      expect(Math.abs(got[r] - ref.sum[r])).toBeLessThanOrEqual(2e-6 * ref.scale[r] + 1e-6);
    }
    await gpu.tuned();
    const [run] = gpu.context.tuneLog;
    expect(run.key).toBe('reduce|16x4096|contiguous');
    for (const r of run.results) {
      expect(r.correct, r.variant).toBe(true);
      expect(r.ns > 0 && Number.isFinite(r.ns), r.variant).toBe(true);
    }
    expect(['thread', 'workgroup']).toContain(gpu.context.tuner.get(run.key));
    await gpu.synchronize();
    ws.releaseAll();
    device.destroy();
  });
});
