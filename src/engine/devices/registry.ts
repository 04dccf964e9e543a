/**
 * The devices tensors can live on: always 'cpu', plus one 'gpu:N' per WebGPU backend that
 * `initEngine` (or a test) registers. Device names resolve here, with errors that list what exists.
 */
import type { Backend } from '../backend';
import { CpuBackend } from '../backends/cpu';
import { Device, type DeviceInfo } from './device';
import { parseDeviceName, type DeviceSpec } from './device-name';
import { createGpuBackend } from './webgpu-factory';

const cpuDevice = new Device('cpu', 'cpu', 0, new CpuBackend(), {
  label: 'CPU',
  vendor: '',
  architecture: '',
});
let gpus: Device[] = [];
let gpuUnavailableReason = 'the engine was started without WebGPU';

export function cpu(): Device {
  return cpuDevice;
}

export function gpuDevices(): readonly Device[] {
  return gpus;
}

export function listDevices(): readonly Device[] {
  return [cpuDevice, ...gpus];
}

/** Why there is no GPU (shown in errors when one is asked for). */
export function gpuUnavailable(): string {
  return gpuUnavailableReason;
}

export function getDevice(spec: DeviceSpec | Device): Device {
  if (spec instanceof Device) return spec;
  const parsed = parseDeviceName(spec);
  if (parsed.kind === 'cpu') return cpuDevice;
  const device = gpus[parsed.index];
  if (device) return device;
  if (gpus.length === 0) {
    throw new Error(
      `${parsed.name} is not available: no GPU (${gpuUnavailableReason}). ` +
        `torch.cuda.isAvailable() is false; use 'cpu'.`,
    );
  }
  throw new Error(
    `${parsed.name} does not exist; devices are ${listDevices()
      .map((d) => d.name)
      .join(', ')}`,
  );
}

/** Registers a GPU backend as the next 'gpu:N' (tests and `initEngine`). */
export function addGpuDevice(backend: Backend, info: DeviceInfo): Device {
  const device = new Device(`gpu:${gpus.length}`, 'gpu', gpus.length, backend, info);
  gpus = [...gpus, device];
  return device;
}

export function removeGpuDevices(reason = 'the GPU devices were removed'): void {
  gpus = [];
  gpuUnavailableReason = reason;
}

export interface EngineStatus {
  backend: 'webgpu' | 'cpu';
  devices: string[];
  /** When backend is 'cpu': why no GPU is used. */
  reason?: string;
}

/**
 * Starts the engine. `gpu` is navigator.gpu in a worker, the `webgpu` package's GPU in Node, or
 * null; with an adapter the WebGPU backend becomes 'gpu:0', otherwise everything runs on 'cpu'.
 */
export async function initEngine(options: { gpu: GPU | null | undefined }): Promise<EngineStatus> {
  removeGpuDevices('the engine is starting');
  const names = (): string[] => listDevices().map((d) => d.name);
  if (!options.gpu) {
    gpuUnavailableReason = 'this browser has no WebGPU (navigator.gpu is missing)';
    return { backend: 'cpu', devices: names(), reason: gpuUnavailableReason };
  }
  try {
    const adapter = await options.gpu.requestAdapter();
    if (!adapter) {
      gpuUnavailableReason = 'WebGPU found no adapter';
      return { backend: 'cpu', devices: names(), reason: gpuUnavailableReason };
    }
    const { backend, info } = await createGpuBackend(adapter);
    addGpuDevice(backend, info);
    return { backend: 'webgpu', devices: names() };
  } catch (error) {
    gpuUnavailableReason = `WebGPU failed to start: ${error instanceof Error ? error.message : String(error)}`;
    return { backend: 'cpu', devices: names(), reason: gpuUnavailableReason };
  }
}
