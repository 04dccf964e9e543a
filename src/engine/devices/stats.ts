/** Memory and synchronisation queries per device (what torch.cuda.* and the device panel read). */
import type { Device } from './device';
import type { DeviceSpec } from './device-name';
import { getDevice, listDevices } from './registry';
import { pooledBytes } from './report';
import { Storage } from '../storage';

function resolve(spec: DeviceSpec | Device | undefined): Device {
  return getDevice(spec ?? 'cpu');
}

/**
 * Bytes held by live tensors on the device. Pooled free buffers are not counted, nor are parked
 * ones (memoryParked): like the pool's, the engine gives those up whenever memory is needed, and
 * what a loop drops and the garbage collector has yet to take waits there. The memory limit
 * applies to both together (parked memory is spilled first when an allocation would pass it).
 */
export function memoryAllocated(device?: DeviceSpec | Device): number {
  const d = resolve(device);
  return d.memory.inUse - Storage.parkedBytes(d);
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

/**
 * Bytes of the device's tensors that step sweeps parked (memory.ts, layer 4): still on the device
 * but left out of memoryAllocated, first to be spilled when memory is short.
 */
export function memoryParked(device?: DeviceSpec | Device): number {
  return Storage.parkedBytes(resolve(device));
}

/**
 * Sets (bytes) or clears (null: the memory limit, else the backend's figure) how much step sweeps
 * may leave parked on the device before spilling the oldest; 0 spills at every sweep.
 */
export function setParkingLimit(device: DeviceSpec | Device, bytes: number | null): void {
  resolve(device).memory.parkingLimit = bytes;
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
