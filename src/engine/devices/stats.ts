/** Memory and synchronisation queries per device (what torch.cuda.* and the device panel read). */
import type { Device } from './device';
import type { DeviceSpec } from './device-name';
import { getDevice, listDevices } from './registry';
import { pooledBytes } from './report';

function resolve(spec: DeviceSpec | Device | undefined): Device {
  return getDevice(spec ?? 'cpu');
}

/** Bytes held by live tensors on the device (pooled free buffers are not counted). */
export function memoryAllocated(device?: DeviceSpec | Device): number {
  return resolve(device).memory.inUse;
}

/**
 * Bytes of the device's tensors that step sweeps moved to host memory (unused for two steps; each
 * comes back on its next use). Not part of memoryAllocated: they take no device memory.
 */
export function memorySpilled(device?: DeviceSpec | Device): number {
  return resolve(device).memory.spilled;
}

/** Bytes spilled to the host and restored from it since the device was made (for measuring). */
export function spillTraffic(device?: DeviceSpec | Device): { spilled: number; restored: number } {
  const m = resolve(device).memory;
  return { spilled: m.spilledTotal, restored: m.restoredTotal };
}

/** Bytes held by live tensors plus freed buffers pooled for reuse (what emptyCache returns). */
export function memoryReserved(device?: DeviceSpec | Device): number {
  const d = resolve(device);
  return d.memory.inUse + pooledBytes(d);
}

export function maxMemoryAllocated(device?: DeviceSpec | Device): number {
  return resolve(device).memory.peak;
}

export function resetPeakMemoryStats(device?: DeviceSpec | Device): void {
  resolve(device).memory.resetPeak();
}

/** Sets (bytes) or clears (null) the device's enforced memory limit. */
export function setMemoryLimit(device: DeviceSpec | Device, bytes: number | null): void {
  resolve(device).memory.limit = bytes;
}

/** Returns pooled, unused memory of every device (or one) to the system. */
export function emptyCache(device?: DeviceSpec | Device): void {
  for (const d of device === undefined ? listDevices() : [resolve(device)]) d.backend.emptyCache();
}

/** Resolves when all work queued on the device (or on every device) has finished. */
export async function synchronize(device?: DeviceSpec | Device): Promise<void> {
  await Promise.all(
    (device === undefined ? listDevices() : [resolve(device)]).map((d) => d.backend.synchronize()),
  );
}
