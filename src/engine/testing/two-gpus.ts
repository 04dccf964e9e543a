/**
 * The engine over a fresh Dawn instance whose first adapter is split into two logical GPUs of
 * 256 MiB: what the tests of data parallelism run on (one WebGPU adapter in Node). Test-only.
 */
import { create, globals } from 'webgpu';
import type { DeviceSettings } from '../devices/settings';
import { initEngine } from '../devices/registry';

/** Two logical GPUs of 256 MiB on the first physical GPU. */
export const TWO_LOGICAL_GPUS: DeviceSettings = {
  visible: null,
  gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 256 }, { memoryLimit: 256 }] }],
};

/** Starts the engine with TWO_LOGICAL_GPUS (no GPU at all where Node has no adapter). */
export async function initTwoLogicalGpus(): Promise<void> {
  Object.assign(globalThis, globals);
  await initEngine({ gpu: create([]), devices: TWO_LOGICAL_GPUS });
}
