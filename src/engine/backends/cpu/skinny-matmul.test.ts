/**
 * The CPU's skinny products (matmul.ts `skinnyMatmul`, at most SKINNY rows or columns): against a
 * float64 reference on odd shapes, through transposed, offset and batch-broadcast operands, for
 * every branch (one column, two, a few; one row, a few).
 */
import { describe, expect, it } from 'vitest';
import type { OutView, View } from '../../backend';
import { CpuBuffer } from './buffer';
import { matmulKernel, SKINNY, WASM_MIN_MACS } from './matmul';

let seed = 17;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return (seed >>> 8) / 2 ** 24 - 0.5 || 0.25;
};

/** A [batch, rows, cols] operand: row-major, or transposed in memory, at an odd offset. */
function operand(batch: number, rows: number, cols: number, transposed: boolean, shared = false) {
  const size = (shared ? 1 : batch) * rows * cols;
  const offset = 5;
  const buffer = new CpuBuffer((offset + size + 3) * 4);
  for (let i = 0; i < buffer.f32.length; i++) buffer.f32[i] = random();
  const strides = transposed ? [rows * cols, 1, rows] : [rows * cols, cols, 1];
  if (shared) strides[0] = 0;
  const view: View = { buffer, dtype: 'float32', shape: [batch, rows, cols], strides, offset };
  const at = (b: number, i: number, j: number) =>
    buffer.f32[offset + b * strides[0] + i * strides[1] + j * strides[2]];
  return { view, at };
}

describe('skinny CPU products', () => {
  it.each([
    // [batch, m, k, n, a transposed, b transposed, b shared across batches]
    [1, 40_001, 2, 1, false, false, false],
    [1, 9_999, 3, 2, true, false, false],
    [2, 5_003, 7, 3, false, true, false],
    [3, 2_047, 5, 4, true, true, true],
    [1, 1, 50_001, 2, false, false, false],
    [1, 1, 40_000, 1, true, true, false],
    [2, 3, 6_007, 7, true, false, true],
    [1, 4, 1_031, 33, false, true, false],
  ])('batch %i, %i×%i by n=%i (A transposed %s, B transposed %s, B shared %s)', (...c) => {
    const [batch, m, k, n, ta, tb, shared] = c as [
      number,
      number,
      number,
      number,
      boolean,
      boolean,
      boolean,
    ];
    expect(Math.min(m, n)).toBeLessThanOrEqual(SKINNY);
    expect(batch * m * n * k).toBeGreaterThanOrEqual(WASM_MIN_MACS);
    const a = operand(batch, m, k, ta);
    const b = operand(batch, k, n, tb, shared);
    const outBuffer = new CpuBuffer((2 + batch * m * n) * 4);
    const out: OutView = {
      buffer: outBuffer,
      dtype: 'float32',
      shape: [batch, m, n],
      strides: [m * n, n, 1],
      offset: 2,
    };
    matmulKernel(a.view, b.view, out);
    for (let s = 0; s < batch; s++) {
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0;
          let magnitude = 0;
          for (let p = 0; p < k; p++) {
            const term = a.at(s, i, p) * b.at(shared ? 0 : s, p, j);
            sum += term;
            magnitude += Math.abs(term);
          }
          const got = outBuffer.f32[2 + (s * m + i) * n + j];
          // Float64 accumulation: only the final rounding to float32 remains.
          expect(Math.abs(got - sum)).toBeLessThanOrEqual(1e-6 * magnitude + 1e-30);
        }
      }
    }
  });
});
