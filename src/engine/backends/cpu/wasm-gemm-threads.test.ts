import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { relaxedSimdSupported } from './gemm-kernel';
import { gemmWasm, WasmGemm } from './wasm-gemm';

// Node 20 has relaxed SIMD only behind this flag (Chromium ships it); it must be set before the
// FMA module is validated. It only affects this test file's process.
setFlagsFromString('--experimental-wasm-relaxed-simd');

let seed = 11;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return (seed >>> 8) / 2 ** 24 - 0.5 || 0.25;
};

/**
 * Multiplies through `gemm` at offsets and checks every element against a float64 loop, within
 * the float32 summation bound k·u·Σ|terms| (u = 2^-24, doubled for slack) — a wrong element or a
 * lost K block is off by O(Σ|terms|).
 */
function checkProduct(gemm: WasmGemm, m: number, k: number, n: number): void {
  const [aOffset, bOffset, cOffset] = [3, 5, 2];
  const a = Float32Array.from({ length: aOffset + m * k }, random);
  const b = Float32Array.from({ length: bOffset + k * n }, random);
  const c = new Float32Array(cOffset + m * n + 4).fill(-7);
  expect(gemmWasm(a, aOffset, b, bOffset, c, cOffset, m, k, n, gemm)).toBe(true);
  const unit = 2 ** -23;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      let magnitude = 0;
      for (let t = 0; t < k; t++) {
        const term = a[aOffset + i * k + t] * b[bOffset + t * n + j];
        sum += term;
        magnitude += Math.abs(term);
      }
      const got = c[cOffset + i * n + j];
      if (!(Math.abs(got - sum) <= k * unit * magnitude + 1e-30)) {
        expect.fail(`${m}x${k}x${n} [${i},${j}]: ${got} vs ${sum}`);
      }
    }
  }
  expect(c[cOffset - 1]).toBe(-7);
  expect(c[cOffset + m * n]).toBe(-7);
}

const shapes: [number, number, number][] = [
  [37, 53, 29],
  [130, 257, 67],
  [1, 300, 5],
  [203, 301, 97],
  [5, 600, 1],
];

describe('threaded WASM GEMM', () => {
  it('matches a float64 reference on odd shapes, with helper threads doing chunks', async () => {
    const gemm = WasmGemm.create({ threads: true, helpers: 2 });
    expect(gemm).not.toBeNull();
    expect(gemm!.shared).toBe(true);
    expect(await gemm!.whenHelpersReady()).toBe(2);
    for (const [m, k, n] of shapes) checkProduct(gemm!, m, k, n);
    // Helpers take chunks when they get a core: on a busy machine that can miss a product or
    // two, so keep multiplying (correctly) until one has run a chunk.
    for (let i = 0; i < 200 && gemm!.helperChunks() === 0; i++) checkProduct(gemm!, 203, 301, 97);
    expect(gemm!.helperChunks()).toBeGreaterThan(0);
  });

  it('runs single-threaded without shared memory (the fallback) with the same results', () => {
    const gemm = WasmGemm.create({ threads: false });
    expect(gemm!.shared).toBe(false);
    for (const [m, k, n] of shapes) checkProduct(gemm!, m, k, n);
    expect(gemm!.helperChunks()).toBe(0);
  });

  it('is correct with relaxed-SIMD FMA and with plain mul + add', () => {
    expect(relaxedSimdSupported()).toBe(true);
    for (const fma of [true, false]) {
      const gemm = WasmGemm.create({ fma, threads: false });
      expect(gemm!.shape.fma).toBe(fma);
      for (const [m, k, n] of shapes) checkProduct(gemm!, m, k, n);
    }
  });

  it('splits products larger than one job into row groups', async () => {
    // A budget of 64K floats: B is packed once, A and C go in groups of 64 panels (256 rows), the
    // last one partial.
    const gemm = WasmGemm.create({ threads: true, helpers: 1, jobFloats: 1 << 16 });
    await gemm!.whenHelpersReady();
    for (const [m, k, n] of [
      [600, 300, 29],
      [517, 300, 5],
    ]) {
      checkProduct(gemm!, m, k, n);
    }
  });
});
