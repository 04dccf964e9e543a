import { describe, expect, it } from 'vitest';
import type { GemmOptions, View } from '../../backend';
import { CpuBackend } from '.';
import { CpuBuffer } from './buffer';

let seed = 5;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return (seed >>> 8) / 2 ** 24 - 0.5 || 0.25;
};

/** A buffer of `size` random floats (plus slack) seen through the given shape and strides. */
function randomView(size: number, shape: number[], strides: number[], offset = 3): View {
  const buffer = new CpuBuffer((offset + size + 8) * 4);
  for (let i = 0; i < buffer.f32.length; i++) buffer.f32[i] = random();
  return { buffer, dtype: 'float32', shape, strides, offset };
}

const at = (v: View, ...index: number[]) =>
  (v.buffer as CpuBuffer).f32[v.offset + index.reduce((s, x, d) => s + x * v.strides[d], 0)];

/** Float64 reference of gemm: [batch or 1][m][n] before layout, and Σ|terms| per element. */
function reference(a: View, b: View, options: GemmOptions) {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  const outBatches = options.sumBatches ? 1 : batch;
  const value = new Float64Array(outBatches * m * n);
  const magnitude = new Float64Array(outBatches * m * n);
  for (let s = 0; s < batch; s++) {
    const o = options.sumBatches ? 0 : s;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        for (let t = 0; t < k; t++) {
          const term = at(a, s, i, t) * at(b, s, t, j);
          value[(o * m + i) * n + j] += term;
          magnitude[(o * m + i) * n + j] += Math.abs(term);
        }
      }
    }
  }
  if (options.bias) {
    for (let e = 0; e < value.length; e++) {
      const bias = at(options.bias, e % n);
      value[e] += bias;
      magnitude[e] += Math.abs(bias);
    }
  }
  if (options.relu) for (let e = 0; e < value.length; e++) value[e] = Math.max(0, value[e]);
  return { value, magnitude, outBatches, m, n, k: options.sumBatches ? batch * k : k };
}

/** Runs backend.gemm (or matmul when options is null) and compares every element. */
function check(a: View, b: View, options: GemmOptions | null): void {
  const cpu = new CpuBackend();
  const ref = reference(a, b, options ?? {});
  const { outBatches, m, n } = ref;
  const pixels = options?.nchwPixels ?? 0;
  const out = new CpuBuffer((2 + outBatches * m * n + 2) * 4);
  out.f32.fill(-9);
  const outView: View = {
    buffer: out,
    dtype: 'float32',
    shape: pixels ? [(outBatches * m) / pixels, n, pixels] : [outBatches, m, n],
    strides: pixels ? [n * pixels, pixels, 1] : [m * n, n, 1],
    offset: 2,
  };
  if (options) cpu.gemm(a, b, outView, options);
  else cpu.matmul(a, b, outView);
  for (let o = 0; o < outBatches; o++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        const e = (o * m + i) * n + j;
        const row = o * m + i;
        const index = pixels ? (Math.floor(row / pixels) * n + j) * pixels + (row % pixels) : e;
        const got = out.f32[2 + index];
        const bound = ref.k * 2 ** -23 * ref.magnitude[e] + 1e-30;
        if (!(Math.abs(got - ref.value[e]) <= bound)) {
          expect.fail(`[${o},${i},${j}] ${got} vs ${ref.value[e]}`);
        }
      }
    }
  }
  expect(out.f32[1]).toBe(-9);
  expect(out.f32[2 + outBatches * m * n]).toBe(-9);
}

describe('CPU matmul and fused gemm through the WASM engine', () => {
  it('multiplies batches with their own B, and with a shared B (rows stacked)', () => {
    const [batch, m, k, n] = [3, 29, 67, 41];
    const a = randomView(batch * m * k, [batch, m, k], [m * k, k, 1]);
    check(a, randomView(batch * k * n, [batch, k, n], [k * n, n, 1]), null);
    check(a, randomView(k * n, [batch, k, n], [0, n, 1]), null);
  });

  it('reads transposed operands (a gradient read as [HW, O], a weight read as Wᵀ)', () => {
    const [batch, m, k, n] = [2, 81, 64, 45];
    // A[b] = G[b]ᵀ where G is [batch, k, m] row-major; B = Wᵀ of a [n, k] weight, shared.
    const a = randomView(batch * m * k, [batch, m, k], [m * k, 1, m]);
    const b = randomView(k * n, [batch, k, n], [0, 1, k]);
    check(a, b, null);
  });

  it('adds the bias, applies relu and writes NCHW in its epilogue', () => {
    const [images, pixels, k, n] = [3, 49, 75, 17];
    const rows = images * pixels;
    const a = randomView(rows * k, [1, rows, k], [0, k, 1]);
    const b = randomView(k * n, [1, k, n], [0, 1, k]);
    const bias = randomView(2 * n, [n], [2]);
    check(a, b, { bias, nchwPixels: pixels });
    check(a, b, { bias, relu: true });
  });

  it('sums per-image products as one product (weight and bias gradients)', () => {
    const [batch, m, k, n] = [6, 21, 83, 38];
    const a = randomView(batch * m * k, [batch, m, k], [m * k, k, 1]);
    check(a, randomView(batch * k * n, [batch, k, n], [k * n, n, 1]), { sumBatches: true });
    // A stride-0 column of ones (the bias gradient's B).
    check(a, randomView(1, [batch, k, 1], [0, 0, 0]), { sumBatches: true });
  });

  it('gives the same epilogue on the small-product JS path', () => {
    const a = randomView(2 * 5 * 7, [2, 5, 7], [35, 7, 1]);
    const b = randomView(2 * 7 * 3, [2, 7, 3], [21, 3, 1]);
    const bias = randomView(3, [3], [1]);
    check(a, b, { sumBatches: true, bias, relu: true });
    check(randomView(10 * 7, [1, 10, 7], [0, 7, 1]), randomView(21, [1, 7, 3], [0, 3, 1]), {
      bias,
      nchwPixels: 5,
    });
  });
});
