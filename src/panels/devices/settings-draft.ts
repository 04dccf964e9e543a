/**
 * The device panel's form as data: per physical GPU, whether it is visible, memory growth, and
 * the memory limit of each logical GPU (MiB, null for none) — converted from and to the
 * DeviceSettings a notebook stores, so the form's rules are tested without a browser.
 */
import {
  MAX_LOGICAL_PER_GPU,
  parseDeviceSettings,
  physicalSettings,
  type DeviceSettings,
} from '../../engine/devices/settings';

export interface GpuDraft {
  visible: boolean;
  memoryGrowth: boolean;
  /** One entry per logical GPU: its limit in MiB, or null. */
  limits: (number | null)[];
}

export function draftFrom(settings: DeviceSettings, physicalCount: number): GpuDraft[] {
  return Array.from({ length: physicalCount }, (_, index) => {
    const gpu = physicalSettings(settings, index);
    return {
      visible: settings.visible === null || settings.visible.includes(index),
      memoryGrowth: gpu.memoryGrowth,
      limits: gpu.logical?.map((l) => l.memoryLimit) ?? [null],
    };
  });
}

/** Splits a GPU into `count` logical GPUs, keeping the limits already typed. */
export function withLogicalCount(gpu: GpuDraft, count: number): GpuDraft {
  const n = Math.min(MAX_LOGICAL_PER_GPU, Math.max(1, Math.floor(count) || 1));
  const fill = gpu.limits[gpu.limits.length - 1] ?? null;
  const limits = Array.from({ length: n }, (_, i) =>
    i < gpu.limits.length ? gpu.limits[i] : fill,
  );
  // Logical GPUs have fixed limits: TensorFlow refuses memory growth beside them.
  return { ...gpu, limits, memoryGrowth: n > 1 ? false : gpu.memoryGrowth };
}

/** The settings the draft stands for (validated; throws DeviceSettingsError on a bad limit). */
export function settingsFrom(draft: readonly GpuDraft[]): DeviceSettings {
  const visible = draft.every((g) => g.visible)
    ? null
    : draft.flatMap((g, i) => (g.visible ? [i] : []));
  const gpus = draft.map((g) => {
    const plain = g.limits.length === 1 && g.limits[0] === null;
    return {
      memoryGrowth: g.memoryGrowth,
      logical: g.memoryGrowth || plain ? null : g.limits.map((memoryLimit) => ({ memoryLimit })),
    };
  });
  return parseDeviceSettings({ visible, gpus });
}
