import { create, globals } from 'webgpu';
import { describe, expect, it } from 'vitest';
import { memoryStore } from './autotune';
import { createWebGPUBackend, type WebGPUBackend } from './index';
import { gpuOf } from './gpu-buffer';
import { aliases, paddedRow, padOperand } from './matmul-repack';
import { at, randomFloats, rng, Workspace, type HostView } from './test-support';

describe('which operands alias, and the padded row', () => {
  it('flags rows a multiple of 4 KiB apart, whichever of the two strides is 1', () => {
    expect(aliases([0, 1024, 1])).toBe(true);
    expect(aliases([1024 * 64, 2048, 1])).toBe(true);
    expect(aliases([0, 1, 1024])).toBe(true);
    expect(aliases([0, 512, 1])).toBe(false);
    expect(aliases([0, 1000, 1])).toBe(false);
    expect(aliases([0, 1040, 1])).toBe(false);
    // Neither stride is 1 (a gathered or doubly strided view): not a row walk.
    expect(aliases([0, 2048, 1024])).toBe(false);
  });

  it('pads rows to a multiple of 16 elements that is never a multiple of 1024', () => {
    expect(paddedRow(1024)).toBe(1040);
    // 1000 rounds to 1008, plus a line is 1024: one more line.
    expect(paddedRow(1000)).toBe(1040);
    expect(paddedRow(1009)).toBe(1040);
    expect(paddedRow(1)).toBe(32);
    for (let length = 1; length < 5000; length += 7) {
      const row = paddedRow(length);
      expect(row).toBeGreaterThanOrEqual(length);
      expect(row % 16).toBe(0);
      expect(row % 1024).not.toBe(0);
    }
  });
});

const gpuApi = (() => {
  Object.assign(globalThis, globals);
  return create([]);
})();
const adapter = await gpuApi.requestAdapter();

/**
 * A fresh backend (its own tuner), so tuning runs of other tests do not interfere; it tunes a
 * class at its first product, as these tests look at the tuning run itself.
 */
async function fresh(): Promise<WebGPUBackend> {
  const backend = await createWebGPUBackend((await gpuApi.requestAdapter())!, memoryStore());
  backend.setTuningPolicy('first-use');
  return backend;
}

/** float64 product of [batch, m, k] and [batch, k, n] views, checked against `got`. */
function expectProduct(got: ArrayLike<number>, a: HostView, b: HostView): void {
  const [batch, m, k] = a.view.shape;
  const n = b.view.shape[2];
  for (let t = 0; t < batch; t++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j += 7) {
        let sum = 0;
        let magnitude = 0;
        for (let p = 0; p < k; p++) {
          const term = at(a, [t, i, p]) * at(b, [t, p, j]);
          sum += term;
          magnitude += Math.abs(term);
        }
        const value = got[(t * m + i) * n + j];
        if (!(Math.abs(value - sum) <= 1e-6 * magnitude + 1e-6)) {
          expect.fail(`out[${t},${i},${j}] = ${value}, expected ${sum}`);
        }
      }
    }
  }
}

describe.skipIf(!adapter)('products over padded copies', () => {
  it('copies an operand into padded rows, keeping its orientation, batches and offset', async () => {
    const gpu = await fresh();
    const ws = new Workspace(gpu);
    const random = rng(5);
    // Row-major, batched, with an offset; column-major shared by every batch.
    const cases: { shape: [number, number, number]; strides: number[]; offset: number }[] = [
      { shape: [2, 5, 1024], strides: [5 * 1024, 1024, 1], offset: 3 },
      { shape: [3, 1024, 6], strides: [0, 1, 1024], offset: 0 },
    ];
    for (const c of cases) {
      const size = c.offset + (c.shape[0] - 1) * c.strides[0] + 1024 * 6 + 1024;
      const x = ws.view(randomFloats(size, random), c.shape, c.strides, c.offset);
      const source = {
        gpu: gpuOf(x.view),
        offset: c.offset,
        strides: c.strides as [number, number, number],
      };
      const { operand, scratch } = padOperand(gpu.context, source, c.shape);
      expect(aliases(operand.strides)).toBe(false);
      const copies = c.strides[0] === 0 ? 1 : c.shape[0];
      const padded = ws.view(new Float32Array(scratch.size / 4), [scratch.size / 4]);
      gpu.context.queue.copy(scratch, 0, gpuOf(padded.view), 0, scratch.size);
      const host = await ws.read(padded.view);
      for (let t = 0; t < copies; t++) {
        for (let i = 0; i < c.shape[1]; i++) {
          for (let j = 0; j < c.shape[2]; j++) {
            const [s0, s1, s2] = operand.strides;
            expect(host[t * s0 + i * s1 + j * s2]).toBe(at(x, [t, i, j]));
          }
        }
      }
      gpu.context.pool.recycle(scratch);
    }
    ws.releaseAll();
  });

  it('gives the float64 product through padded copies, in every layout', async () => {
    const gpu = await fresh();
    const ws = new Workspace(gpu);
    const random = rng(9);
    gpu.context.autotune = false;
    gpu.overrides.repack = 'pad';
    for (const variant of ['q16x4@16x4', 's8x8@8x8', 'v8x8@8x8'] as const) {
      gpu.overrides.matmul = variant;
      // A [3, 9, 1024] row-major times B [1024, 1024] shared by the batch: both rows alias.
      const a = ws.view(randomFloats(3 * 9 * 1024, random), [3, 9, 1024]);
      const b = ws.view(randomFloats(1024 * 1024, random), [3, 1024, 1024], [0, 1024, 1]);
      const out = ws.output('float32', [3, 9, 1024]);
      gpu.matmul(a.view, b.view, out);
      expectProduct(await ws.read(out), a, b);
      // B transposed (stored [n, k] with k = 2048), A with an offset: B's columns alias.
      const at2 = ws.view(randomFloats(5 + 13 * 2048, random), [1, 13, 2048], [0, 2048, 1], 5);
      const bt = ws.view(randomFloats(40 * 2048, random), [1, 2048, 40], [0, 1, 2048]);
      const out2 = ws.output('float32', [1, 13, 40]);
      gpu.matmul(at2.view, bt.view, out2);
      expectProduct(await ws.read(out2), at2, bt);
      ws.releaseAll();
    }
  });

  it('measures in place against padded once the class is tuned, and keeps the faster', async () => {
    const gpu = await fresh();
    const ws = new Workspace(gpu);
    const random = rng(13);
    const a = ws.view(randomFloats(64 * 1024, random), [1, 64, 1024]);
    const b = ws.view(randomFloats(1024 * 1024, random), [1, 1024, 1024]);
    const out = ws.output('float32', [1, 64, 1024]);
    // First product: the class is tuned; second: its repack choice is; third: it is used.
    for (let run = 0; run < 3; run++) {
      gpu.matmul(a.view, b.view, out);
      expectProduct(await ws.read(out), a, b);
      await gpu.tuned();
    }
    const runs = gpu.context.tuneLog.filter((r) => r.key.startsWith('repack|'));
    expect(runs.map((r) => r.key)).toEqual(['repack|64x1024x1024|kn|single|ab']);
    const [run] = runs;
    expect(run.results.map((r) => r.variant)).toEqual(['keep', 'pad']);
    for (const r of run.results) {
      expect(r.correct, r.variant).toBe(true);
      expect(Number.isFinite(r.ns) && r.ns > 0, r.variant).toBe(true);
    }
    const faster = run.results.reduce((x, y) => (y.ns < x.ns ? y : x)).variant;
    expect(Object.fromEntries(gpu.context.tuner.entries())[run.key]).toBe(faster);
    // Rows 2 KiB apart do not alias: no measurement for them.
    const c = ws.view(randomFloats(64 * 512, random), [1, 64, 512]);
    const d = ws.view(randomFloats(512 * 512, random), [1, 512, 512]);
    const out2 = ws.output('float32', [1, 64, 512]);
    for (let i = 0; i < 2; i++) {
      gpu.matmul(c.view, d.view, out2);
      expectProduct(await ws.read(out2), c, d);
      await gpu.tuned();
    }
    expect(gpu.context.tuneLog.filter((r) => r.key.startsWith('repack|'))).toHaveLength(1);
    ws.releaseAll();
    // Tuning runs of 64×1024×1024 products on SwiftShader: 61.9 s once beside other test files
    // on a loaded 2-core host, past the default 60 s.
  }, 180_000);
});
