import { describe, expect, it } from 'vitest';
import { checkProduct } from './wasm-gemm-check';
import { gemmModuleBytes, wasmGemm } from './wasm-gemm';

describe('WebAssembly SIMD matmul kernel', () => {
  it('is a valid module where SIMD exists (Node and Chromium have it)', () => {
    expect(WebAssembly.validate(gemmModuleBytes())).toBe(true);
    expect(wasmGemm()).not.toBeNull();
  });

  it('matches a float64 reference at odd sizes and offsets (padding to its blocks)', () => {
    for (const [m, k, n] of [
      [1, 1, 1],
      [5, 7, 9],
      [13, 64, 8],
      [64, 3, 130],
      [37, 129, 67],
    ]) {
      checkProduct(undefined, m, k, n);
    }
  });
});
