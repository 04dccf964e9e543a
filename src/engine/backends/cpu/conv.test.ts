import { describe, expect, it } from 'vitest';
import type { Conv2dGeometry, Pool2dGeometry, View } from '../../backend';
import { CpuBuffer } from './buffer';
import { col2imKernel, im2colKernel, maxPool2dBackwardKernel, maxPool2dKernel } from './conv';
import { convGeometry as geometry, forEachTap } from '../../testing/conv-geometry';
import { adaptivePoolGeometry, windowPoolGeometry } from '../../ops/pool';

let seed = 3;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return (seed >>> 8) / 2 ** 24 - 0.5 || 0.25;
};

/** A contiguous view at offset 2 of a buffer filled with `fill` (random by default). */
function view(
  shape: number[],
  fill: () => number = random,
  dtype: 'float32' | 'int32' = 'float32',
) {
  const size = shape.reduce((a, b) => a * b, 1);
  const buffer = new CpuBuffer((size + 4) * 4);
  for (let i = 0; i < size + 4; i++) buffer.f32[i] = fill();
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  return { buffer, dtype, shape, strides, offset: 2 } satisfies View;
}
const f32 = (v: View) => (v.buffer as CpuBuffer).f32;
const i32 = (v: View) => (v.buffer as CpuBuffer).i32;

/** columns[(n, oh, ow), (c, kh, kw)] from its definition, reading x through its strides. */
function im2colReference(x: View, g: Conv2dGeometry): Float64Array {
  const out = new Float64Array(
    g.batch * g.outHeight * g.outWidth * g.inChannels * g.kernelHeight * g.kernelWidth,
  );
  const [sn, sc, sh, sw] = x.strides;
  forEachTap(g, (flat, _col, n, c, ih, iw) => {
    out[flat] = f32(x)[x.offset + n * sn + c * sc + ih * sh + iw * sw];
  });
  return out;
}

const convCases: [string, number[], number[], number[], number[], number[]][] = [
  ['valid 5x5 (interior windows only)', [2, 3, 9, 9], [5, 5], [1, 1], [0, 0], [1, 1]],
  ['padding', [1, 2, 6, 5], [3, 3], [1, 1], [1, 1], [1, 1]],
  ['stride 2, odd size', [2, 1, 7, 8], [3, 2], [2, 2], [1, 0], [1, 1]],
  ['dilation', [1, 2, 9, 7], [3, 2], [1, 1], [2, 1], [2, 3]],
];

describe('CPU im2col and col2im', () => {
  it.each(convCases)('im2col matches its definition: %s', (_, xs, k, s, p, d) => {
    const g = geometry(xs, k, s, p, d);
    const x = view(xs);
    const expected = im2colReference(x, g);
    const cols = view([expected.length], () => -9);
    im2colKernel(x, g, cols);
    expect(Array.from(f32(cols).subarray(2, 2 + expected.length))).toEqual(
      Array.from(expected, Math.fround),
    );
    expect(f32(cols)[2 + expected.length]).toBe(-9);
  });

  it('im2col reads a non-contiguous input (channels-last storage)', () => {
    const g = geometry([2, 3, 6, 7], [3, 3], [1, 2], [1, 0], [1, 1]);
    const base = view([2, 6, 7, 3]); // NHWC storage seen as NCHW
    const x: View = { ...base, shape: [2, 3, 6, 7], strides: [126, 1, 21, 3] };
    const expected = im2colReference(x, g);
    const cols = view([expected.length]);
    im2colKernel(x, g, cols);
    expect(Array.from(f32(cols).subarray(2, 2 + expected.length))).toEqual(
      Array.from(expected, Math.fround),
    );
  });

  it.each(convCases)('col2im is the adjoint of im2col: %s', (_, xs, k, s, p, d) => {
    // ⟨im2col(x), y⟩ = ⟨x, col2im(y)⟩ for random x and y, both sides summed in float64.
    const g = geometry(xs, k, s, p, d);
    const x = view(xs);
    const columns = im2colReference(x, g);
    const y = view([columns.length]);
    const back = view(xs, () => -9);
    col2imKernel(
      {
        ...y,
        shape: [columns.length / (xs[1] * k[0] * k[1]), xs[1] * k[0] * k[1]],
        strides: [xs[1] * k[0] * k[1], 1],
      },
      g,
      back,
    );
    let left = 0;
    for (let i = 0; i < columns.length; i++) left += columns[i] * f32(y)[2 + i];
    let right = 0;
    let magnitude = 0;
    const count = xs.reduce((a, b) => a * b, 1);
    for (let i = 0; i < count; i++) {
      right += f32(x)[2 + i] * f32(back)[2 + i];
      magnitude += Math.abs(f32(x)[2 + i] * f32(back)[2 + i]);
    }
    expect(Math.abs(left - right)).toBeLessThanOrEqual(1e-6 * magnitude);
    expect(f32(back)[2 + count]).toBe(-9);
  });
});

/** Max over each window from the definition: first maximum wins, a NaN wins outright. */
function poolReference(x: View, g: Pool2dGeometry): { values: number[]; at: number[] } {
  const values: number[] = [];
  const at: number[] = [];
  const range = (i: number, inSize: number, outSize: number, k: number, s: number, p: number) =>
    g.adaptive
      ? [Math.floor((i * inSize) / outSize), Math.ceil(((i + 1) * inSize) / outSize)]
      : [Math.max(i * s - p, 0), Math.min(i * s - p + k, inSize)];
  for (let n = 0; n < g.batch; n++)
    for (let c = 0; c < g.channels; c++)
      for (let oh = 0; oh < g.outHeight; oh++)
        for (let ow = 0; ow < g.outWidth; ow++) {
          const [h0, h1] = range(oh, g.inHeight, g.outHeight, g.kernelHeight, g.strideH, g.padH);
          const [w0, w1] = range(ow, g.inWidth, g.outWidth, g.kernelWidth, g.strideW, g.padW);
          let best = -Infinity;
          let bestAt = h0 * g.inWidth + w0;
          let nan = false;
          for (let h = h0; h < h1 && !nan; h++)
            for (let w = w0; w < w1 && !nan; w++) {
              const v = f32(x)[x.offset + ((n * g.channels + c) * g.inHeight + h) * g.inWidth + w];
              if (Number.isNaN(v) || v > best) {
                best = v;
                bestAt = h * g.inWidth + w;
                nan = Number.isNaN(v);
              }
            }
          values.push(best);
          at.push(bestAt);
        }
  return { values, at };
}

const poolCases: [string, Pool2dGeometry][] = [
  ['2x2 stride 2 (the fast path)', windowPoolGeometry([2, 3, 9, 8], [2, 2], [2, 2], [0, 0])],
  ['3x3 stride 2 padded', windowPoolGeometry([1, 2, 7, 6], [3, 3], [2, 2], [1, 1])],
  ['adaptive 5x7 to 2x3', adaptivePoolGeometry([2, 2, 5, 7], [2, 3])],
];

describe('CPU max pooling', () => {
  it.each(poolCases)('%s: values, argmax, ties, NaN and -Infinity', (_, g) => {
    const xs = [g.batch, g.channels, g.inHeight, g.inWidth];
    // Few distinct values (ties), some NaN and -Infinity.
    const x = view(xs, () => {
      const r = random();
      return r < -0.45 ? NaN : r > 0.45 ? -Infinity : Math.round(r * 6);
    });
    const expected = poolReference(x, g);
    const outShape = [xs[0], xs[1], g.outHeight, g.outWidth];
    const out = view(outShape);
    const indices = view(outShape, () => 0, 'int32');
    maxPool2dKernel(x, g, out, indices);
    const count = expected.values.length;
    expect(Array.from(f32(out).subarray(2, 2 + count))).toEqual(expected.values);
    expect(Array.from(i32(indices).subarray(2, 2 + count))).toEqual(expected.at);

    // Backward: each window's gradient lands on its argmax, summed where windows share it.
    const grad = view(outShape);
    const dx = view(xs, () => -9);
    maxPool2dBackwardKernel(grad, indices, g, dx);
    const want = new Float64Array(xs.reduce((a, b) => a * b, 1));
    const plane = g.inHeight * g.inWidth;
    for (let o = 0; o < count; o++) {
      const image = Math.floor(o / (g.outHeight * g.outWidth));
      want[image * plane + expected.at[o]] += f32(grad)[2 + o];
    }
    for (let i = 0; i < want.length; i++) {
      const got = f32(dx)[2 + i];
      if (!(Math.abs(got - want[i]) <= 1e-6 * Math.abs(want[i])))
        expect.fail(`dx[${i}] ${got} vs ${want[i]}`);
    }
  });
});
