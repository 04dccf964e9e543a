/**
 * Argument coercions shared by the tf tensor functions (ops.ts, nn.ts, random.ts): tensor-likes
 * become tensors on the tf default device, and TensorFlow's `axis` arguments (None, an int, a
 * list or tuple) become engine dims.
 */
import { defaultDevice, ops, Tensor, type DType } from '../../engine';
import { asInt, describe } from '../args';
import { ValueError } from '../tf-config';

/** Anything tensor-like as a tensor on the tf default device (as tf.convert_to_tensor). */
export function tensorOf(value: unknown, dtype?: DType): Tensor {
  if (value instanceof Tensor)
    return dtype && value.dtype !== dtype ? ops.cast(value, dtype) : value;
  return ops.fromData(value, { device: defaultDevice('tf'), dtype });
}

/** A float tensor: ints are cast, as TensorFlow's float ops would refuse them but users mix. */
export function floatOf(value: unknown): Tensor {
  const t = tensorOf(value);
  return t.dtype === 'float32' ? t : ops.cast(t, 'float32');
}

/** A list of tensor-likes (tf.concat's `values`); one tensor is unstacked along its first axis. */
export function tensorList(value: unknown, what: string): Tensor[] {
  if (Array.isArray(value)) return value.map((v) => tensorOf(v));
  if (value instanceof Tensor) return ops.unbind(value, 0);
  throw new TypeError(`${what} must be a list of tensors, got ${describe(value)}`);
}

/** `axis`: None (all axes), an int, or a list/tuple of ints, normalised against `rank`. */
export function axesArg(value: unknown, rank: number, what: string): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.map((v, i) => axisIndex(asInt(v, `${what}[${i}]`), rank, what));
}

/** One axis in [-rank, rank) as a non-negative index; TensorFlow's InvalidArgument otherwise. */
export function axisIndex(axis: number, rank: number, what: string): number {
  const n = Math.max(rank, 1);
  if (axis < -n || axis >= n)
    throw new ValueError(`${what}: axis ${axis} is out of bounds for a tensor of rank ${rank}`);
  return axis < 0 ? axis + n : axis;
}
