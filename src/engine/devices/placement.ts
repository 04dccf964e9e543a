/**
 * Where new tensors go when no device is given. PyTorch puts them on the cpu; TensorFlow places
 * them on gpu:0 when there is one, and `tf.device(name, fn)` changes that inside fn.
 */
import type { Device } from './device';
import { cpu, getDevice, gpuDevices } from './registry';
import type { DeviceSpec } from './device-name';
import { withStackEntry } from '../scoped';

export type Flavor = 'torch' | 'tf';

/** Entries are removed by identity, so overlapping async bodies cannot pop each other's device. */
const tfStack: { device: Device }[] = [];

export function defaultDevice(flavor: Flavor): Device {
  if (flavor === 'torch') return cpu();
  return tfStack[tfStack.length - 1]?.device ?? gpuDevices()[0] ?? cpu();
}

/**
 * Runs fn (sync or async) with a tf default device. Like TensorFlow's soft placement, asking for a
 * GPU where there is none places on the cpu instead of failing.
 */
export function withTfDevice<T>(spec: DeviceSpec, fn: () => T): T {
  let device: Device;
  try {
    device = getDevice(spec);
  } catch (error) {
    if (gpuDevices().length > 0) throw error;
    device = cpu();
  }
  return withStackEntry(tfStack, { device }, fn);
}
