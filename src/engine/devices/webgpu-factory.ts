/**
 * The one place the engine core reaches into the WebGPU backend: turning an adapter into a
 * backend plus a description of it.
 */
import type { Backend } from '../backend';
import { createWebGPUBackend } from '../backends/webgpu';
import type { DeviceInfo } from './device';

export interface GpuBackendAndInfo {
  backend: Backend;
  info: DeviceInfo;
}

export function describeAdapter(info: GPUAdapterInfo | undefined): DeviceInfo {
  const vendor = info?.vendor ?? '';
  const architecture = info?.architecture ?? '';
  const label = info?.description || `${vendor} ${architecture}`.trim() || 'WebGPU adapter';
  return { label, vendor, architecture };
}

export async function createGpuBackend(adapter: GPUAdapter): Promise<GpuBackendAndInfo> {
  const backend = await createWebGPUBackend(adapter);
  return { backend, info: describeAdapter(backend.info) };
}
