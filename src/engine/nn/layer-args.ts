/** Argument coercions shared by the layers: ints or pairs, devices, flags, and unsupported options. */
import { asInt, bindArgs, describe, type BoundArgs, type Signature } from '../args';
import type { Device } from '../devices/device';
import type { DeviceSpec } from '../devices/device-name';
import { cpu, getDevice } from '../devices/registry';
import { parseDType } from '../dtype';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';

export { bindArgs, type BoundArgs };

export function bind(sig: Signature, args: readonly unknown[]): BoundArgs {
  return bindArgs(sig, args);
}

export function intArg(value: unknown, what: string, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new TypeError(`${what} is required`);
    return fallback;
  }
  const n = asInt(value, what);
  return n;
}

export function positiveInt(value: unknown, what: string, fallback?: number): number {
  const n = intArg(value, what, fallback);
  if (n <= 0) throw new RangeError(`${what} must be a positive integer, got ${n}`);
  return n;
}

/** An int or a list of `n` ints (kernel sizes, strides, …), as a list of n. */
export function tupleArg(value: unknown, n: number, what: string, fallback?: number[]): number[] {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new TypeError(`${what} is required`);
    return fallback;
  }
  if (typeof value === 'number') return new Array<number>(n).fill(asInt(value, what));
  if (Array.isArray(value) && value.length === n)
    return value.map((v, i) => asInt(v, `${what}[${i}]`));
  throw new TypeError(`${what} must be an int or a list of ${n} ints, got ${describe(value)}`);
}

export function boolArg(value: unknown, what: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`${what} must be true or false, got ${describe(value)}`);
  return value;
}

export function deviceArg(value: unknown): Device {
  return value === undefined || value === null ? cpu() : getDevice(value as DeviceSpec);
}

/** Layers hold float32 parameters; other dtypes are refused by name. */
export function checkFloatDtype(value: unknown, layer: string): void {
  if (value !== undefined && value !== null && parseDType(value, `${layer}: dtype`) !== 'float32') {
    throw new TypeError(
      `${layer}: parameters are float32; dtype ${String(value)} is not supported`,
    );
  }
}

/** Options PyTorch has that this engine does not implement yet: refused unless at their default. */
export function unsupported(a: BoundArgs, layer: string, defaults: Record<string, unknown>): void {
  for (const [key, fallback] of Object.entries(defaults)) {
    const v = a[key];
    if (v !== undefined && v !== null && v !== fallback) {
      throw new Error(
        `${layer}: ${key}=${JSON.stringify(v)} is not supported yet (only ${JSON.stringify(fallback)})`,
      );
    }
  }
}

export function requireTensor(value: unknown, layer: string): Tensor {
  if (value === null || typeof value !== 'object' || !('shape' in value) || !('dtype' in value)) {
    throw new TypeError(`${layer}: expected a Tensor input, got ${describe(value)}`);
  }
  return value as Tensor;
}

/** "Conv2d(1, 32, …): expected input of shape [N, 1, H, W], got [128, 3, 28, 28]". */
export function shapeError(layer: string, expected: string, x: Tensor, why = ''): ShapeError {
  return new ShapeError(
    `${layer}: expected input of shape ${expected}, got ${formatShape(x.shape)}${why ? ` (${why})` : ''}`,
  );
}

/** Python's tuple repr: (3, 3) or (3,). */
export function pyTuple(values: readonly number[]): string {
  return values.length === 1 ? `(${values[0]},)` : `(${values.join(', ')})`;
}
