/**
 * The device configuration a notebook carries (`metadata.gpubook.devices`) and the kernel applies
 * at start: which physical GPUs are visible, memory growth, and each GPU's split into logical GPUs
 * with memory limits in MiB — TensorFlow's `tf.config` settings as plain, validated JSON.
 */

/** One logical GPU carved out of a physical one; `memoryLimit` in MiB, null for none. */
export interface LogicalGpuSettings {
  memoryLimit: number | null;
}

export interface PhysicalGpuSettings {
  /** TensorFlow's `set_memory_growth`: allocate as needed instead of a fixed limit. */
  memoryGrowth: boolean;
  /** The logical GPUs on this physical GPU; null means one logical GPU without a limit. */
  logical: LogicalGpuSettings[] | null;
}

export interface DeviceSettings {
  /** Physical GPU indices that are visible, in order; null means all of them. */
  visible: number[] | null;
  /** Per physical GPU index; missing entries mean the defaults. */
  gpus: PhysicalGpuSettings[];
}

/** Each logical GPU is its own WebGPU device; a few are instructive, dozens only cost memory. */
export const MAX_LOGICAL_PER_GPU = 8;
/** Largest memory limit accepted (MiB): WebGPU adapters do not report more than this anyway. */
export const MAX_MEMORY_LIMIT_MIB = 1024 * 1024;

export function defaultDeviceSettings(): DeviceSettings {
  return { visible: null, gpus: [] };
}

export function defaultPhysicalSettings(): PhysicalGpuSettings {
  return { memoryGrowth: false, logical: null };
}

export class DeviceSettingsError extends Error {
  override name = 'DeviceSettingsError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Checks a MiB memory limit (null passes). */
export function checkMemoryLimit(value: unknown, what: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new DeviceSettingsError(
      `${what}: a memory limit is a positive number of MiB, got ${String(value)}`,
    );
  }
  if (value > MAX_MEMORY_LIMIT_MIB) {
    throw new DeviceSettingsError(
      `${what}: ${value} MiB is more than the ${MAX_MEMORY_LIMIT_MIB} MiB allowed`,
    );
  }
  return value;
}

/** Checks a list of logical GPU settings (an empty list is TensorFlow's "no logical GPUs": refused). */
export function checkLogical(value: unknown, what: string): LogicalGpuSettings[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0) {
    throw new DeviceSettingsError(`${what}: give a non-empty list of logical GPU configurations`);
  }
  if (value.length > MAX_LOGICAL_PER_GPU) {
    throw new DeviceSettingsError(
      `${what}: at most ${MAX_LOGICAL_PER_GPU} logical GPUs per physical GPU (got ${value.length})`,
    );
  }
  return value.map((entry, i) => {
    if (!isRecord(entry)) throw new DeviceSettingsError(`${what}[${i}] must be an object`);
    return { memoryLimit: checkMemoryLimit(entry.memoryLimit, `${what}[${i}].memoryLimit`) };
  });
}

/**
 * Validates settings from an untrusted source (a shared link's metadata, a message): anything
 * malformed throws DeviceSettingsError rather than reaching the device registry.
 */
export function parseDeviceSettings(value: unknown): DeviceSettings {
  if (value === null || value === undefined) return defaultDeviceSettings();
  if (!isRecord(value)) throw new DeviceSettingsError('device settings must be an object');
  let visible: number[] | null = null;
  if (value.visible !== null && value.visible !== undefined) {
    if (
      !Array.isArray(value.visible) ||
      !value.visible.every((v) => Number.isInteger(v) && v >= 0)
    ) {
      throw new DeviceSettingsError(
        'device settings: "visible" must be a list of GPU indices or null',
      );
    }
    visible = [...new Set(value.visible as number[])];
  }
  const gpusValue = value.gpus ?? [];
  if (!Array.isArray(gpusValue) || gpusValue.length > 64) {
    throw new DeviceSettingsError(
      'device settings: "gpus" must be a list (one entry per physical GPU)',
    );
  }
  const gpus = gpusValue.map((entry, i): PhysicalGpuSettings => {
    if (entry === null || entry === undefined) return defaultPhysicalSettings();
    if (!isRecord(entry))
      throw new DeviceSettingsError(`device settings: gpus[${i}] must be an object`);
    if (entry.memoryGrowth !== undefined && typeof entry.memoryGrowth !== 'boolean') {
      throw new DeviceSettingsError(
        `device settings: gpus[${i}].memoryGrowth must be true or false`,
      );
    }
    const logical = checkLogical(entry.logical, `device settings: gpus[${i}].logical`);
    const memoryGrowth = entry.memoryGrowth === true;
    if (memoryGrowth && logical !== null) {
      throw new DeviceSettingsError(
        `device settings: gpus[${i}] has memory growth and logical GPUs; TensorFlow allows one or the other`,
      );
    }
    return { memoryGrowth, logical };
  });
  return { visible, gpus };
}

/** The settings of physical GPU `index` (defaults when absent). */
export function physicalSettings(settings: DeviceSettings, index: number): PhysicalGpuSettings {
  return settings.gpus[index] ?? defaultPhysicalSettings();
}

/** A copy with physical GPU `index` changed (entries before it filled with defaults). */
export function withPhysicalSettings(
  settings: DeviceSettings,
  index: number,
  change: Partial<PhysicalGpuSettings>,
): DeviceSettings {
  const gpus = [...settings.gpus];
  while (gpus.length <= index) gpus.push(defaultPhysicalSettings());
  gpus[index] = { ...gpus[index], ...change };
  return { ...settings, gpus };
}

/** One logical GPU to create: the physical GPU it lives on and its limit in bytes. */
export interface LogicalGpuPlan {
  physical: number;
  memoryLimitBytes: number | null;
}

export const MIB = 1024 * 1024;

/** The logical GPUs the settings ask for on `physicalCount` GPUs, in TensorFlow's numbering. */
export function planLogicalGpus(settings: DeviceSettings, physicalCount: number): LogicalGpuPlan[] {
  const all = Array.from({ length: physicalCount }, (_, i) => i);
  const visible =
    settings.visible === null ? all : settings.visible.filter((i) => i < physicalCount);
  const plan: LogicalGpuPlan[] = [];
  for (const physical of visible) {
    const logical = physicalSettings(settings, physical).logical ?? [{ memoryLimit: null }];
    for (const entry of logical) {
      plan.push({
        physical,
        memoryLimitBytes: entry.memoryLimit === null ? null : Math.floor(entry.memoryLimit * MIB),
      });
    }
  }
  return plan;
}
