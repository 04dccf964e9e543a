/**
 * Plain-data views of the devices for hosts (the kernel posts them to the device panel): what the
 * physical GPUs are and how they are split, and a memory snapshot per device.
 */
import type { Device } from './device';
import {
  currentDeviceSettings,
  deviceSettingsProblem,
  gpuDevices,
  gpusInitialized,
  gpuUnavailable,
  listDevices,
  physicalGpus,
} from './registry';
import { physicalSettings, type DeviceSettings } from './settings';

export interface PhysicalGpuReport {
  index: number;
  /** TensorFlow's name: '/physical_device:GPU:0'. */
  name: string;
  label: string;
  vendor: string;
  architecture: string;
  /** A CPU emulation (SwiftShader) rather than a GPU: its timings mean little. */
  fallback: boolean;
  powerPreference: string;
  visible: boolean;
  memoryGrowth: boolean;
  limits: Record<string, number>;
  features: string[];
}

export interface LogicalGpuReport {
  /** Our name ('gpu:1') and TensorFlow's ('/device:GPU:1'). */
  name: string;
  tfName: string;
  physical: number | null;
  /** Bytes, or null without a limit. */
  memoryLimit: number | null;
  /** Why the device was lost, or null. */
  lost: string | null;
}

export interface DeviceReport {
  physical: PhysicalGpuReport[];
  logical: LogicalGpuReport[];
  settings: DeviceSettings;
  /** Whether the logical GPUs were used or listed (configuration is then fixed). */
  initialized: boolean;
  /** Why there is no GPU, when there is none. */
  unavailable: string | null;
  /** Why the notebook's device settings were refused (the defaults are in use), or null. */
  settingsError: string | null;
}

export interface MemorySnapshot {
  device: string;
  /** Bytes held by live tensors. */
  inUse: number;
  peak: number;
  /** Bytes, or null without a limit. */
  limit: number | null;
  /** Bytes of freed buffers kept for reuse (returned by emptyCache). */
  pooled: number;
  /** Bytes of this device's tensors moved to host memory by step sweeps (see memory.ts). */
  spilled: number;
}

export function deviceReport(): DeviceReport {
  const settings = currentDeviceSettings();
  const visible = settings.visible;
  return {
    physical: physicalGpus().map((gpu) => ({
      index: gpu.index,
      name: gpu.name,
      label: gpu.info.label,
      vendor: gpu.info.vendor,
      architecture: gpu.info.architecture,
      fallback: gpu.fallback,
      powerPreference: gpu.powerPreference,
      visible: visible === null || visible.includes(gpu.index),
      memoryGrowth: physicalSettings(settings, gpu.index).memoryGrowth,
      limits: { ...gpu.limits },
      features: [...gpu.features],
    })),
    logical: gpuDevices().map((d) => ({
      name: d.name,
      tfName: `/device:GPU:${d.index}`,
      physical: d.physical,
      memoryLimit: d.memory.limit,
      lost: d.lostReason,
    })),
    settings,
    initialized: gpusInitialized(),
    unavailable: gpuDevices().length === 0 ? gpuUnavailable() : null,
    settingsError: deviceSettingsProblem(),
  };
}

/** Bytes of freed buffers a device's backend keeps pooled for reuse. */
export function pooledBytes(device: Device): number {
  return device.capability('poolStats')?.poolStats().freeBytes ?? 0;
}

export function memorySnapshot(): MemorySnapshot[] {
  return listDevices().map((d) => ({
    device: d.name,
    inUse: d.memory.inUse,
    peak: d.memory.peak,
    limit: d.memory.limit,
    pooled: d.lostReason === null ? pooledBytes(d) : 0,
    spilled: d.memory.spilled,
  }));
}
