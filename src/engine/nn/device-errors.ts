/**
 * Device mismatch errors a learner can act on: when a module is fed tensors on another device than
 * its parameters, the engine's "Expected all tensors to be on the same device" gains a line that
 * names the module, where each input is and where the parameters are, and how to fix it.
 */
import { formatShape } from '../shape';
import { Tensor } from '../tensor';

const MARK = Symbol('deviceErrorDescribed');

export function isDeviceMismatch(error: unknown): error is Error {
  return (
    error instanceof Error &&
    error.message.startsWith('Expected all tensors to be on the same device')
  );
}

interface ModuleLike {
  readonly constructor: { readonly name: string };
  parameters(): Tensor[];
}

function paramDevices(module: ModuleLike): string[] {
  return [...new Set(module.parameters().map((p) => p.device))];
}

function inputDescriptions(inputs: readonly unknown[]): string[] {
  return inputs.flatMap((x, i) =>
    x instanceof Tensor ? [`input ${i} ${formatShape(x.shape)} is on ${x.device}`] : [],
  );
}

/** Adds the innermost module's view of the mismatch to the error (once). */
export function describeDevices(
  error: Error,
  module: ModuleLike,
  inputs: readonly unknown[],
): void {
  const marked = error as Error & { [MARK]?: boolean };
  if (marked[MARK]) return;
  const devices = paramDevices(module);
  if (devices.length === 0) return;
  marked[MARK] = true;
  const name = module.constructor.name;
  const where = inputDescriptions(inputs);
  const params =
    devices.length === 1
      ? `its parameters are on ${devices[0]}`
      : `its parameters are on ${devices.join(' and ')}`;
  error.message +=
    `\n${name}: ${where.length ? `${where.join(', ')}, but ` : ''}${params}. ` +
    `Move the data with .to(device) (e.g. features.to('${devices[0]}')) or the model with net.to(device).`;
}

/** For built-in layers: the input must be where the layer's weights are (checked before any op). */
export function checkInputDevice(layer: string, x: Tensor, weight: Tensor): void {
  if (x.deviceObject === weight.deviceObject) return;
  throw new Error(
    `Expected all tensors to be on the same device, but found at least two devices, ` +
      `${weight.device} and ${x.device}!\n${layer}: the input ${formatShape(x.shape)} is on ${x.device}, but the ` +
      `layer's weight is on ${weight.device}. Move the data with x.to('${weight.device}') or the model with ` +
      `net.to('${x.device}').`,
  );
}

/** Marks an error as already described (built-in layers' own messages are precise). */
export function markDescribed(error: Error): Error {
  (error as Error & { [MARK]?: boolean })[MARK] = true;
  return error;
}
