/** Test support for the WASM GEMM: a product at offsets checked against a float64 loop. */
import { expect } from 'vitest';
import { gemmWasm, type WasmGemm } from './wasm-gemm';

let seed = 11;
/** Deterministic values in [-0.5, 0.5), never 0. */
const random = (): number => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return (seed >>> 8) / 2 ** 24 - 0.5 || 0.25;
};

/**
 * Multiplies through `gemm` at offsets and checks every element against a float64 loop, within
 * the float32 summation bound k·u·Σ|terms| (u = 2^-24, doubled for slack) — a wrong element or a
 * lost K block is off by O(Σ|terms|).
 */
export function checkProduct(gemm: WasmGemm | undefined, m: number, k: number, n: number): void {
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
