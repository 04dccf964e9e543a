/**
 * Average pooling, plain (kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
 * and adaptive, as PyTorch computes it. Each is separable: along each axis a window's weight is
 * 1/(its length on that axis), so the 2-D pooling is two axis maps (ops/separable.ts) whose
 * weights multiply to PyTorch's 1/(pool_h·pool_w). 1-D pooling is the same over one axis.
 */
import { ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { mul } from './elementwise';
import { mean } from './reduce';
import { alongAxis, spatial, type AxisMap } from './separable';

export interface AvgPoolOptions {
  stride?: number[];
  padding?: number[];
  ceilMode?: boolean;
  countIncludePad?: boolean;
  divisorOverride?: number | null;
}

/** PyTorch's pooling_output_shape (dilation 1). */
export function poolOutputSize(
  size: number,
  kernel: number,
  stride: number,
  pad: number,
  ceil: boolean,
): number {
  let out = Math.floor((size + 2 * pad - kernel + (ceil ? stride - 1 : 0)) / stride) + 1;
  // The last window must start inside the input or its left padding.
  if (ceil && (out - 1) * stride >= size + pad) out--;
  return out;
}

/**
 * One axis of avg_pool: window o covers [o·s − p, o·s − p + k) clipped to the padded input; its
 * divisor is that length (count_include_pad) or the part inside the input, or 1 when a divisor
 * override applies to the whole window instead.
 */
function avgPoolAxis(
  size: number,
  out: number,
  kernel: number,
  stride: number,
  pad: number,
  includePad: boolean,
  override: boolean,
): AxisMap {
  const weights = new Float32Array(out * size);
  for (let o = 0; o < out; o++) {
    const start = o * stride - pad;
    const end = Math.min(start + kernel, size + pad);
    const [lo, hi] = [Math.max(start, 0), Math.min(end, size)];
    const divisor = override ? 1 : includePad ? end - start : hi - lo;
    for (let i = lo; i < hi; i++) weights[o * size + i] = 1 / divisor;
  }
  return { out, in: size, weights };
}

/** One axis of adaptive pooling: window o covers [⌊o·in/out⌋, ⌈(o+1)·in/out⌉). */
function adaptiveAxis(size: number, out: number): AxisMap {
  const weights = new Float32Array(out * size);
  for (let o = 0; o < out; o++) {
    const start = Math.floor((o * size) / out);
    const end = Math.ceil(((o + 1) * size) / out);
    for (let i = start; i < end; i++) weights[o * size + i] = 1 / (end - start);
  }
  return { out, in: size, weights };
}

function avgPool(name: string, x: Tensor, kernel: number[], options: AvgPoolOptions): Tensor {
  const dims = kernel.length as 1 | 2;
  const stride = options.stride ?? kernel;
  const padding = options.padding ?? new Array<number>(dims).fill(0);
  const ceil = options.ceilMode ?? false;
  const includePad = options.countIncludePad ?? true;
  const override = options.divisorOverride ?? null;
  if ([...kernel, ...stride].some((v) => !Number.isInteger(v) || v < 1))
    throw new ShapeError(
      `${name}: kernel_size and stride must be positive integers, got kernel_size=[${kernel.join(', ')}], stride=[${stride.join(', ')}]`,
    );
  if (padding.some((p, i) => !Number.isInteger(p) || p < 0 || p > kernel[i] / 2))
    throw new ShapeError(
      `${name}: pad should be at most half of kernel size, but got pad=[${padding.join(', ')}] and kernel_size=[${kernel.join(', ')}]`,
    );
  if (override !== null && (!Number.isInteger(override) || override === 0))
    throw new RangeError(`${name}: divisor must be not zero, got ${override}`);
  return spatial(name, x, dims, (xb) => {
    const sizes = xb.shape.slice(2);
    const outs = sizes.map((s, i) => poolOutputSize(s, kernel[i], stride[i], padding[i], ceil));
    if (outs.some((o) => o < 1))
      throw new ShapeError(
        `${name}: given input size (${xb.shape.slice(1).join('x')}), the calculated output size ` +
          `(${[xb.shape[1], ...outs].join('x')}) is too small`,
      );
    const axis = (i: number) =>
      avgPoolAxis(
        sizes[i],
        outs[i],
        kernel[i],
        stride[i],
        padding[i],
        includePad,
        override !== null,
      );
    let y = alongAxis(xb, -1, axis(dims - 1));
    if (dims === 2) y = alongAxis(y, -2, axis(0));
    if (override !== null) y = mul(y, 1 / override);
    return y;
  });
}

/** x [N, C, H, W] (or [C, H, W]) → [N, C, oH, oW]: F.avg_pool2d. */
export function avgPool2d(
  x: Tensor,
  kernel: [number, number],
  options: AvgPoolOptions = {},
): Tensor {
  return avgPool('avgPool2d', x, kernel, options);
}

/** x [N, C, L] (or [C, L]) → [N, C, oL]: F.avg_pool1d. */
export function avgPool1d(x: Tensor, kernel: number, options: AvgPoolOptions = {}): Tensor {
  return avgPool('avgPool1d', x, [kernel], options);
}

/** Output sizes: a size of -1 (PyTorch's None) keeps the input's. */
function adaptive(name: string, x: Tensor, outputSize: number[]): Tensor {
  const dims = outputSize.length as 1 | 2;
  return spatial(name, x, dims, (xb) => {
    const sizes = xb.shape.slice(2);
    const outs = outputSize.map((o, i) => (o === -1 ? sizes[i] : o));
    if (outs.some((o) => !Number.isInteger(o) || o < 1))
      throw new ShapeError(
        `${name}: output_size must be positive integers, got [${outputSize.join(', ')}]`,
      );
    // Global pooling (a classifier head's AdaptiveAvgPool2d(1)) is one reduction.
    if (outs.every((o) => o === 1)) return mean(xb, dims === 2 ? [2, 3] : [2], true);
    let y = alongAxis(xb, -1, adaptiveAxis(sizes[dims - 1], outs[dims - 1]));
    if (dims === 2) y = alongAxis(y, -2, adaptiveAxis(sizes[0], outs[0]));
    return y;
  });
}

/** x [N, C, H, W] (or [C, H, W]) → [N, C, oH, oW]: F.adaptive_avg_pool2d. */
export function adaptiveAvgPool2d(x: Tensor, outputSize: [number, number]): Tensor {
  return adaptive('adaptiveAvgPool2d', x, outputSize);
}

/** x [N, C, L] (or [C, L]) → [N, C, oL]: F.adaptive_avg_pool1d. */
export function adaptiveAvgPool1d(x: Tensor, outputSize: number): Tensor {
  return adaptive('adaptiveAvgPool1d', x, [outputSize]);
}
