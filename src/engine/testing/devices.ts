/**
 * The devices op tests run on: always the cpu, plus the WebGPU backend in Node (Dawn on
 * SwiftShader) when `node-gpu.ts` finds an adapter. Each test file calls this once at top level
 * and passes every device as a parameter of its test table. GPUBOOK_TEST_CPU_ONLY=1 skips the GPU.
 */
import type { Device } from '../devices/device';
import { addGpuDevice, cpu, gpuDevices } from '../devices/registry';
import { describeAdapter } from '../devices/webgpu-factory';
import { nodeGpuBackend } from './node-gpu';

let cached: Promise<Device[]> | null = null;

export function testDevices(): Promise<Device[]> {
  cached ??= (async () => {
    const devices: Device[] = [cpu()];
    if (process.env.GPUBOOK_TEST_CPU_ONLY) return devices;
    if (gpuDevices().length > 0) return [...devices, ...gpuDevices()];
    const backend = await nodeGpuBackend();
    if (backend) devices.push(addGpuDevice(backend, describeAdapter(backend.info)));
    return devices;
  })();
  return cached;
}

/** Kernels a device has run so far (WebGPU dispatches, CPU kernel calls). */
export function dispatches(device: Device): number {
  const counter = device.capability('dispatchCount');
  if (!counter) throw new Error(`${device.name} counts no dispatches`);
  return counter.dispatches();
}
