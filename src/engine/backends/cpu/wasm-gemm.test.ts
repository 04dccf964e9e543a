import { describe, expect, it } from 'vitest';
import { gemmModuleBytes, gemmWasm, wasmGemm } from './wasm-gemm';

describe('WebAssembly SIMD matmul kernel', () => {
  it('is a valid module where SIMD exists (Node and Chromium have it)', () => {
    expect(WebAssembly.validate(gemmModuleBytes())).toBe(true);
    expect(wasmGemm()).not.toBeNull();
  });

  it('matches a float64 reference at odd sizes and offsets (padding to its blocks)', () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return (seed >>> 8) / 2 ** 24 - 0.5 || 0.25;
    };
    for (const [m, k, n] of [
      [1, 1, 1],
      [5, 7, 9],
      [13, 64, 8],
      [64, 3, 130],
      [37, 129, 67],
    ]) {
      const aOffset = 3;
      const bOffset = 5;
      const cOffset = 2;
      const a = Float32Array.from({ length: aOffset + m * k }, random);
      const b = Float32Array.from({ length: bOffset + k * n }, random);
      const c = new Float32Array(cOffset + m * n + 4).fill(-7);
      expect(gemmWasm(a, aOffset, b, bOffset, c, cOffset, m, k, n)).toBe(true);
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
          if (!(Math.abs(got - sum) <= 1e-6 * magnitude + 1e-7)) {
            expect.fail(`${m}x${k}x${n} [${i},${j}]: ${got} vs ${sum}`);
          }
        }
      }
      // Nothing outside the output was written.
      expect(c[cOffset - 1]).toBe(-7);
      expect(c[cOffset + m * n]).toBe(-7);
    }
  });
});
