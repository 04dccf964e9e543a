import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { relaxedSimdSupported } from './gemm-kernel';
import { checkProduct } from './wasm-gemm-check';
import { WasmGemm } from './wasm-gemm';

// Node 20 has relaxed SIMD only behind this flag (Chromium ships it); it must be set before the
// FMA module is validated. It only affects this test file's process.
setFlagsFromString('--experimental-wasm-relaxed-simd');

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
