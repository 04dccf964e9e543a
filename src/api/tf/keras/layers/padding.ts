/**
 * The window arguments of convolution and pooling layers (an int or a list of `rank` ints), and
 * TensorFlow's 'valid' / 'same' padding arithmetic for their windows. 'same'
 * may need one more element after than before (TF puts the odd one at the end), which symmetric
 * engine padding cannot express, so such inputs are padded explicitly with `padAxis`.
 */
import { ops, ShapeError, type Tensor } from '../../../../engine';
import { asInt } from '../../../args';

export type PaddingMode = 'valid' | 'same';

/** Keras's kernel_size, pool_size, strides or dilation_rate: `rank` ints, or null when not given. */
export function windowArg(value: unknown, rank: number, what: string): number[] | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) {
    if (value.length !== rank)
      throw new TypeError(`${what} must be an int or a list of ${rank} ints`);
    return value.map((v, i) => asInt(v, `${what}[${i}]`));
  }
  return new Array<number>(rank).fill(asInt(value, what));
}

export function paddingArg(value: unknown, what: string): PaddingMode {
  const v = value === undefined || value === null ? 'valid' : String(value).toLowerCase();
  if (v !== 'valid' && v !== 'same') {
    throw new TypeError(`${what}: padding must be 'valid' or 'same', got ${JSON.stringify(value)}`);
  }
  return v;
}

/** Output length of a window of `size` (dilated) sliding with `stride` over `length`. */
export function windowOutput(
  length: number | null,
  size: number,
  stride: number,
  dilation: number,
  padding: PaddingMode,
): number | null {
  if (length === null) return null;
  if (padding === 'same') return Math.ceil(length / stride);
  const span = (size - 1) * dilation + 1;
  return Math.max(0, Math.floor((length - span) / stride) + 1);
}

/** [before, after] padding TF uses for 'same' (zero for 'valid'). */
export function samePads(
  length: number,
  size: number,
  stride: number,
  dilation: number,
  padding: PaddingMode,
): [number, number] {
  if (padding === 'valid') return [0, 0];
  const out = Math.ceil(length / stride);
  const total = Math.max((out - 1) * stride + (size - 1) * dilation + 1 - length, 0);
  const before = Math.floor(total / 2);
  return [before, total - before];
}

/** x with `before`/`after` elements of `value` added along `axis` (differentiable). */
export function padAxis(
  x: Tensor,
  axis: number,
  before: number,
  after: number,
  value: number,
): Tensor {
  if (before === 0 && after === 0) return x;
  const shapeWith = (n: number): number[] => x.shape.map((s, d) => (d === axis ? n : s));
  const parts: Tensor[] = [];
  if (before > 0)
    parts.push(ops.full(shapeWith(before), value, { device: x.deviceObject, dtype: x.dtype }));
  parts.push(x);
  if (after > 0)
    parts.push(ops.full(shapeWith(after), value, { device: x.deviceObject, dtype: x.dtype }));
  return ops.cat(parts, axis);
}

export function checkWindowFits(
  layer: string,
  length: number,
  size: number,
  dilation: number,
  padding: PaddingMode,
): void {
  if (padding === 'valid' && length < (size - 1) * dilation + 1) {
    throw new ShapeError(
      `${layer}: the input is ${length} long along a spatial axis, shorter than the window of ${size}` +
        (dilation > 1 ? ` (dilation ${dilation})` : '') +
        ` with padding='valid'`,
    );
  }
}
