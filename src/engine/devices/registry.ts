/**
 * The devices tensors can live on: always 'cpu', plus the logical GPUs 'gpu:N' that the device
 * settings carve out of the physical GPUs (WebGPU adapters). Device names resolve here, with
 * errors that list what exists; configuration follows TensorFlow's rules (only before first use).
 *
 * Why one GPUDevice per logical GPU rather than one shared GPUDevice with separate accounting:
 * a WebGPU device has exactly one queue, so logical GPUs sharing it would run one after another,
 * and data-parallel training on them would teach something false. Requesting the adapter again
 * gives an independent GPUDevice whose queue runs concurrently with the others (measured in
 * devices.test.ts), with its own buffer pool, pipelines and loss. The price is real isolation:
 * a buffer cannot cross devices, so copies between logical GPUs go through a mapped staging
 * buffer and the host (ops/transfer.ts) — as between two physical GPUs without peer access.
 */
import type { Backend } from '../backend';
import { CpuBackend } from '../backends/cpu';
import type { WebGPUBackend } from '../backends/webgpu';
import { DeferredBackend } from './deferred-backend';
import { Device, type DeviceInfo } from './device';
import { parseDeviceName, type DeviceSpec } from './device-name';
import { adapterKey, discoverGpus, type PhysicalGpu } from './physical';
import {
  defaultDeviceSettings,
  parseDeviceSettings,
  planLogicalGpus,
  type DeviceSettings,
  type LogicalGpuPlan,
} from './settings';
import { createGpuBackend } from './webgpu-factory';

const cpuDevice = new Device('cpu', 'cpu', 0, new CpuBackend(), {
  label: 'CPU',
  vendor: '',
  architecture: '',
});
let gpus: Device[] = [];
let gpuUnavailableReason = 'the engine was started without WebGPU';

let gpuApi: GPU | null = null;
let physical: PhysicalGpu[] = [];
/** Adapters found by discovery, not yet consumed by a device (one per physical GPU). */
let spareAdapters: (GPUAdapter | null)[] = [];
let settings: DeviceSettings = defaultDeviceSettings();
/** Why the settings given at start were refused (the defaults were used), or null. */
let settingsProblem: string | null = null;
/** TensorFlow initializes its devices when they are listed, as well as when first used. */
let listedLogical = false;
/** Logical GPUs whose GPUDevice the registry opened (and so may destroy). */
const owned = new WeakSet<Device>();
/** Devices taken out of service on purpose: their `lost` is expected, not a failure. */
const retired = new WeakSet<Device>();

export interface DeviceLostEvent {
  device: string;
  reason: string;
}
const lostListeners = new Set<(event: DeviceLostEvent) => void>();

export function cpu(): Device {
  return cpuDevice;
}

/** The logical GPUs, in TensorFlow's numbering. */
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

export function physicalGpus(): readonly PhysicalGpu[] {
  return physical;
}

export function currentDeviceSettings(): DeviceSettings {
  return settings;
}

/** Why the device settings given to initEngine were refused, or null. */
export function deviceSettingsProblem(): string | null {
  return settingsProblem;
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

// ---------------------------------------------------------------------------------------------
// Configuration, TensorFlow's way: allowed until the GPUs are first used.

/** TensorFlow's RuntimeError (configuration after initialization). */
export class RuntimeError extends Error {
  override name = 'RuntimeError';
}

/** Whether the logical GPUs were used (allocated on) or listed: then they are fixed. */
export function gpusInitialized(): boolean {
  return listedLogical || gpus.some((d) => d.used);
}

/** `tf.config.listLogicalDevices` initializes the devices, as in TensorFlow. */
export function markGpusInitialized(): void {
  listedLogical = true;
}

export type ConfigurationKind = 'visible' | 'virtual' | 'physical';

const AFTER_INIT: Record<ConfigurationKind, string> = {
  visible: 'Visible devices cannot be modified after being initialized',
  virtual: 'Virtual devices cannot be modified after being initialized',
  physical: 'Physical devices cannot be modified after being initialized',
};

/**
 * Changes the settings and rebuilds the logical GPUs right away. Their GPUDevices open
 * asynchronously, but they can be used at once (DeferredBackend), so a cell may configure and
 * then compute on the next line, as in TensorFlow.
 */
export function configureDevices(
  kind: ConfigurationKind,
  change: (current: DeviceSettings) => DeviceSettings,
): void {
  if (gpusInitialized()) {
    throw new RuntimeError(
      `${AFTER_INIT[kind]}. Configure devices before the first GPU tensor, or restart the ` +
        `kernel (the device panel applies its settings that way).`,
    );
  }
  const next = parseDeviceSettings(change(settings));
  settings = next;
  if (gpuApi === null || physical.length === 0) return;
  retireAll();
  gpus = planLogicalGpus(next, physical.length).map((plan, index) =>
    logicalDevice(index, plan, new DeferredBackend(openBackend(plan.physical))),
  );
  watchAll(gpus);
  noteVisibility();
}

function logicalDevice(index: number, plan: LogicalGpuPlan, backend: Backend): Device {
  const gpu = physical[plan.physical];
  const device = new Device(`gpu:${index}`, 'gpu', index, backend, gpu.info, plan.physical);
  device.memory.limit = plan.memoryLimitBytes;
  owned.add(device);
  return device;
}

/** A new GPUDevice on physical GPU `index` (reusing the adapter discovery found, once). */
async function openBackend(index: number): Promise<WebGPUBackend> {
  const gpu = physical[index];
  let adapter = spareAdapters[index] ?? null;
  spareAdapters[index] = null;
  adapter ??= (await gpuApi?.requestAdapter({ powerPreference: gpu.powerPreference })) ?? null;
  if (!adapter) throw new Error(`WebGPU no longer offers ${gpu.info.label}`);
  if (adapterKey(adapter) !== gpu.key) {
    throw new Error(
      `asked WebGPU for ${gpu.info.label} (${gpu.powerPreference}) but got another adapter`,
    );
  }
  return (await createGpuBackend(adapter)).backend;
}

/** Destroys the registry's own GPUDevices of the current logical GPUs (nothing uses them). */
function retireAll(): void {
  for (const device of gpus) {
    retired.add(device);
    if (!owned.has(device)) continue;
    device.capability('loss')?.destroy();
  }
  gpus = [];
}

function watchAll(devices: readonly Device[]): void {
  for (const device of devices) {
    device
      .capability('loss')
      ?.lost.then((info) => {
        if (retired.has(device) || device.lostReason !== null) return;
        const reason = info.message ? `${info.reason}: ${info.message}` : info.reason;
        device.markLost(reason);
        for (const listener of lostListeners) listener({ device: device.name, reason });
      })
      .catch(() => {});
  }
}

function noteVisibility(): void {
  if (gpus.length === 0 && physical.length > 0) {
    gpuUnavailableReason = 'no GPU is visible (tf.config.setVisibleDevices hid them all)';
  }
}

// ---------------------------------------------------------------------------------------------
// Loss and recovery.

/** Tells `listener` when a logical GPU's GPUDevice is lost; returns the unsubscribe. */
export function onDeviceLost(listener: (event: DeviceLostEvent) => void): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}

/**
 * Replaces every lost logical GPU with a fresh GPUDevice under the same name and limit, usable at
 * once. Tensors of the lost device stay lost (their use throws DeviceLostError). Returns the names.
 */
export function recoverLostDevices(): string[] {
  const recovered: string[] = [];
  gpus = gpus.map((device, index) => {
    if (device.lostReason === null || device.physical === null) return device;
    retired.add(device);
    const plan = { physical: device.physical, memoryLimitBytes: device.memory.limit };
    const fresh = logicalDevice(index, plan, new DeferredBackend(openBackend(device.physical)));
    watchAll([fresh]);
    recovered.push(fresh.name);
    return fresh;
  });
  return recovered;
}

// ---------------------------------------------------------------------------------------------
// Tests and start-up.

/** Registers a GPU backend as the next 'gpu:N' (tests). */
export function addGpuDevice(backend: Backend, info: DeviceInfo): Device {
  const device = new Device(`gpu:${gpus.length}`, 'gpu', gpus.length, backend, info);
  gpus = [...gpus, device];
  return device;
}

export function removeGpuDevices(reason = 'the GPU devices were removed'): void {
  retireAll();
  gpuUnavailableReason = reason;
}

export interface EngineStatus {
  backend: 'webgpu' | 'cpu';
  devices: string[];
  /** When backend is 'cpu': why no GPU is used. */
  reason?: string;
  /** When the given device settings were refused (the defaults were used instead). */
  settingsError?: string;
}

/**
 * Starts the engine. `gpu` is navigator.gpu in a worker, the `webgpu` package's GPU in Node, or
 * null. With adapters, `devices` (a notebook's settings, validated here) decides the logical
 * GPUs; without, everything runs on 'cpu'.
 */
export async function initEngine(options: {
  gpu: GPU | null | undefined;
  devices?: unknown;
}): Promise<EngineStatus> {
  removeGpuDevices('the engine is starting');
  gpuApi = options.gpu ?? null;
  physical = [];
  spareAdapters = [];
  listedLogical = false;
  let settingsError: string | undefined;
  try {
    settings = parseDeviceSettings(options.devices);
  } catch (error) {
    settings = defaultDeviceSettings();
    settingsError = error instanceof Error ? error.message : String(error);
  }
  settingsProblem = settingsError ?? null;
  const status = (backend: 'webgpu' | 'cpu', reason?: string): EngineStatus => ({
    backend,
    devices: listDevices().map((d) => d.name),
    ...(reason === undefined ? {} : { reason }),
    ...(settingsError === undefined ? {} : { settingsError }),
  });
  if (!gpuApi) {
    gpuUnavailableReason = 'this browser has no WebGPU (navigator.gpu is missing)';
    return status('cpu', gpuUnavailableReason);
  }
  try {
    const found = await discoverGpus(gpuApi);
    physical = found.gpus;
    spareAdapters = found.adapters;
    if (physical.length === 0) {
      gpuUnavailableReason = 'WebGPU found no adapter';
      return status('cpu', gpuUnavailableReason);
    }
    const plan = planLogicalGpus(settings, physical.length);
    // Opened one after another: the first logical GPU of each physical GPU takes its adapter.
    const backends: WebGPUBackend[] = [];
    for (const entry of plan) backends.push(await openBackend(entry.physical));
    gpus = plan.map((entry, index) => logicalDevice(index, entry, backends[index]));
    watchAll(gpus);
    noteVisibility();
    return gpus.length > 0 ? status('webgpu') : status('cpu', gpuUnavailableReason);
  } catch (error) {
    retireAll();
    gpuUnavailableReason = `WebGPU failed to start: ${error instanceof Error ? error.message : String(error)}`;
    return status('cpu', gpuUnavailableReason);
  }
}
