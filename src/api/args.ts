/**
 * The API.md calling convention for every api function, in one place: the engine's `bindArgs`
 * (positional Python params, or any by name in one trailing options object, camelCased) plus the
 * coercions of device and dtype arguments that the torch- and tf-shaped names share.
 */
import {
  args as engineArgs,
  getDevice,
  parseDType,
  Tensor,
  type Device,
  type DeviceSpec,
  type DType,
} from '../engine';

export const {
  bindArgs,
  isOptionsObject,
  asInt,
  asNumber,
  asBool,
  asDims,
  asShape,
  asPair,
  optional,
  describe,
} = engineArgs;
export type { Signature, BoundArgs } from '../engine/args';

/** A device argument (string, torch.device, Device) resolved to a Device; `fallback` when absent. */
export function deviceArg(value: unknown, fallback: Device): Device {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string' || (typeof value === 'object' && 'name' in value)) {
    return getDevice(value as DeviceSpec);
  }
  throw new TypeError(`device must be a string such as 'cpu' or 'gpu:0', got ${describe(value)}`);
}

export function dtypeArg(value: unknown, what = 'dtype'): DType | undefined {
  return value === undefined || value === null ? undefined : parseDType(value, what);
}

export function boolArg(value: unknown, what: string, fallback = false): boolean {
  return optional(value, asBool, what, fallback);
}

/** A tensor argument; anything else is a TypeError naming the argument and what it got. */
export function tensorArg(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  throw new TypeError(`${what} must be a Tensor, got ${describe(value)}`);
}

/** An optional tensor argument (a bias, a weight, running statistics): null when absent. */
export function optionalTensorArg(value: unknown, what: string): Tensor | null {
  return value === undefined || value === null ? null : tensorArg(value, what);
}
