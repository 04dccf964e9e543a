/**
 * The one place the engine core reaches into the WebGPU backend: turning an adapter into a
 * backend plus a description of it.
 */
import { createWebGPUBackend, type WebGPUBackend } from '../backends/webgpu';
import type { DeviceInfo } from './device';
import { describeAdapter } from './physical';

export { describeAdapter };

/** Opens a GPUDevice on the adapter (consuming it) and wraps it in the WebGPU backend. */
export async function createGpuBackend(
  adapter: GPUAdapter,
): Promise<{ backend: WebGPUBackend; info: DeviceInfo }> {
  const backend = await createWebGPUBackend(adapter);
  return { backend, info: describeAdapter(backend.info) };
}
