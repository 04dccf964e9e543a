/**
 * Arguments the Keras normalisation layers share: an axis (or list of axes) resolved against the
 * input's rank with a message naming the layer and shape, and the regularizer / constraint
 * keywords, which are refused rather than silently ignored (there is no regularisation loss here).
 */
import { ValueError } from '../../../tf-config';
import { asInt } from '../../../args';
import type { BoundArgs } from '../../../args';
import { formatShapeSpec, type ShapeSpec } from './layer';

/** `axis` (negative counts from the end) as an index into a shape of rank `ndim`. */
export function resolveAxis(layer: string, axis: number, shape: ShapeSpec): number {
  const ndim = shape.length;
  const a = axis < 0 ? ndim + axis : axis;
  if (!Number.isInteger(a) || a < 0 || a >= ndim) {
    throw new ValueError(
      `${layer}: invalid axis ${axis} for an input of rank ${ndim}. Received input shape: ${formatShapeSpec(shape)}`,
    );
  }
  return a;
}

/** Keras's `axis`: an int or a list of ints. */
export function axisList(value: unknown, what: string): number[] {
  if (Array.isArray(value)) return value.map((v, i) => asInt(v, `${what}[${i}]`));
  return [asInt(value, what)];
}

/** Throws for any of `names` given a value other than null (Keras's default). */
export function refuseUnsupported(layer: string, a: BoundArgs, names: readonly string[]): void {
  for (const name of names) {
    const v = a[name];
    if (v !== undefined && v !== null && v !== false) {
      throw new TypeError(`${layer}: ${name} is not supported`);
    }
  }
}
