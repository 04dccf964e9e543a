/**
 * Dataset elements as TensorFlow nests them: one tensor, a tuple (a JS array) or a record of
 * tensors. Helpers turn user data into such a structure of source tensors and map over leaves.
 */
import { defaultDevice, ops, Tensor, type TypedArray } from '../../../engine';
import { isIntegerArray } from '../../../engine/ops/creation';
import { describe } from '../../args';

export type Structure = Tensor | Structure[] | { [key: string]: Structure };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

function isTypedArray(v: unknown): v is ArrayBufferView & ArrayLike<number> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

/** One component: a tensor as given, or host data as a tensor (integer arrays become int32). */
export function toComponent(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  const device = defaultDevice('tf');
  if (isTypedArray(value)) {
    const integer = isIntegerArray(value);
    const host: TypedArray = integer
      ? Int32Array.from(value)
      : value instanceof Float32Array
        ? value
        : Float32Array.from(value);
    return ops.fromHost(host, [value.length], { device, dtype: integer ? 'int32' : 'float32' });
  }
  if (Array.isArray(value) || typeof value === 'number') return ops.fromData(value, { device });
  throw new TypeError(
    `${what} must be a tensor, a typed array or nested arrays of numbers, got ${describe(value)}`,
  );
}

/**
 * Python's tuple `(x, y)` is written `[x, y]`: an array is a tuple when it holds tensors, typed
 * arrays or records; nested arrays of numbers are one tensor, as a Python list is.
 */
function isTuple(value: unknown[]): boolean {
  return value.some((v) => v instanceof Tensor || isTypedArray(v) || isPlainObject(v));
}

export function toStructure(value: unknown, what: string): Structure {
  if (Array.isArray(value) && isTuple(value))
    return value.map((v, i) => toStructure(v, `${what}[${i}]`));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, toStructure(v, `${what}.${k}`)]),
    );
  }
  return toComponent(value, what);
}

export function leaves(s: Structure): Tensor[] {
  if (s instanceof Tensor) return [s];
  if (Array.isArray(s)) return s.flatMap(leaves);
  return Object.values(s).flatMap(leaves);
}

export function mapStructure(s: Structure, fn: (t: Tensor) => Tensor): Structure {
  if (s instanceof Tensor) return fn(s);
  if (Array.isArray(s)) return s.map((x) => mapStructure(x, fn));
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, mapStructure(v, fn)]));
}

/** Combines the leaves of several structures of the same shape, leaf by leaf. */
export function zipStructures(list: readonly Structure[], fn: (ts: Tensor[]) => Tensor): Structure {
  const first = list[0];
  if (first instanceof Tensor) return fn(list as Tensor[]);
  if (Array.isArray(first))
    return first.map((_, i) =>
      zipStructures(
        list.map((s) => (s as Structure[])[i]),
        fn,
      ),
    );
  return Object.fromEntries(
    Object.keys(first).map((k) => [
      k,
      zipStructures(
        list.map((s) => (s as Record<string, Structure>)[k]),
        fn,
      ),
    ]),
  );
}

export function isStructure(value: unknown): value is Structure {
  if (value instanceof Tensor) return true;
  if (Array.isArray(value)) return value.every(isStructure);
  return isPlainObject(value) && Object.values(value).every(isStructure);
}
