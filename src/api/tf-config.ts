/**
 * `tf.config`: TensorFlow's device configuration over the engine's device registry — physical
 * GPUs (WebGPU adapters), visibility, memory growth and logical GPUs with memory limits, allowed
 * only before the GPUs are first used, with TensorFlow's errors otherwise.
 */
import {
  configureDevices,
  currentDeviceSettings,
  gpuDevices,
  markGpusInitialized,
  maxMemoryAllocated,
  memoryAllocated,
  parseDeviceName,
  physicalGpus,
  physicalSettings,
  resetPeakMemoryStats,
  withPhysicalSettings,
  type LogicalGpuSettings,
} from '../engine';
import { bindArgs, boolArg, describe } from './args';

/** TensorFlow's ValueError (a bad argument, as opposed to RuntimeError's bad timing). */
export class ValueError extends Error {
  override name = 'ValueError';
}

export type DeviceType = 'CPU' | 'GPU';

/** A device as `tf.config.listPhysicalDevices` returns it. */
export class PhysicalDevice {
  constructor(
    readonly name: string,
    readonly deviceType: DeviceType,
  ) {}

  toString(): string {
    return `PhysicalDevice(name='${this.name}', device_type='${this.deviceType}')`;
  }
}

/** A device as `tf.config.listLogicalDevices` returns it. */
export class LogicalDevice {
  constructor(
    readonly name: string,
    readonly deviceType: DeviceType,
  ) {}

  toString(): string {
    return `LogicalDevice(name='${this.name}', device_type='${this.deviceType}')`;
  }
}

/** `new tf.config.LogicalDeviceConfiguration({ memoryLimit: 1024 })`: one logical GPU, MiB. */
export class LogicalDeviceConfiguration {
  readonly memoryLimit: number | null;
  readonly experimentalPriority: number | null;
  readonly experimentalDeviceOrdinal: number | null;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      {
        name: 'LogicalDeviceConfiguration',
        params: ['memoryLimit', 'experimentalPriority', 'experimentalDeviceOrdinal'],
      },
      args,
    );
    const number = (value: unknown, what: string): number | null => {
      if (value === undefined || value === null) return null;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new TypeError(
          `LogicalDeviceConfiguration: ${what} must be a number, got ${describe(value)}`,
        );
      }
      return value;
    };
    this.memoryLimit = number(a.memoryLimit, 'memoryLimit');
    this.experimentalPriority = number(a.experimentalPriority, 'experimentalPriority');
    this.experimentalDeviceOrdinal = number(
      a.experimentalDeviceOrdinal,
      'experimentalDeviceOrdinal',
    );
  }

  toString(): string {
    return `LogicalDeviceConfiguration(memory_limit=${this.memoryLimit ?? 'None'})`;
  }
}

function typeFilter(deviceType: unknown): DeviceType | null {
  if (deviceType === undefined || deviceType === null) return null;
  const type = String(deviceType).toUpperCase();
  if (type !== 'CPU' && type !== 'GPU') {
    throw new ValueError(`Unknown device type ${JSON.stringify(deviceType)}: use 'CPU' or 'GPU'`);
  }
  return type;
}

function allPhysical(): PhysicalDevice[] {
  return [
    new PhysicalDevice('/physical_device:CPU:0', 'CPU'),
    ...physicalGpus().map((g) => new PhysicalDevice(g.name, 'GPU')),
  ];
}

function ofType<T extends { deviceType: DeviceType }>(list: T[], deviceType: unknown): T[] {
  const type = typeFilter(deviceType);
  return type === null ? list : list.filter((d) => d.deviceType === type);
}

function deviceNameOf(device: unknown): string {
  if (typeof device === 'string') return device;
  if (device !== null && typeof device === 'object' && 'name' in device) {
    return String((device as { name: unknown }).name);
  }
  throw new TypeError(
    `expected a device from tf.config.listPhysicalDevices, got ${describe(device)}`,
  );
}

/** The physical GPU index a PhysicalDevice (or its name) stands for. */
function physicalGpuIndex(device: unknown, what: string): number {
  const parsed = parseDeviceName(deviceNameOf(device));
  if (parsed.kind !== 'gpu') {
    throw new ValueError(`${what}: only GPUs can be configured here, got ${deviceNameOf(device)}`);
  }
  if (parsed.index >= physicalGpus().length) {
    throw new ValueError(
      `${what}: unrecognized device ${deviceNameOf(device)}; tf.config.listPhysicalDevices('GPU') ` +
        `lists ${physicalGpus().length} GPU(s)`,
    );
  }
  return parsed.index;
}

function sameLogical(a: LogicalGpuSettings[] | null, b: LogicalGpuSettings[] | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function listLogicalDevices(deviceType?: string): LogicalDevice[] {
  markGpusInitialized();
  return ofType(
    [
      new LogicalDevice('/device:CPU:0', 'CPU'),
      ...gpuDevices().map((d) => new LogicalDevice(`/device:GPU:${d.index}`, 'GPU')),
    ],
    deviceType,
  );
}

function setLogicalDeviceConfiguration(device: unknown, logicalDevices: unknown): void {
  const what = 'setLogicalDeviceConfiguration';
  const index = physicalGpuIndex(device, what);
  let logical: LogicalGpuSettings[] | null = null;
  if (logicalDevices !== null && logicalDevices !== undefined) {
    if (!Array.isArray(logicalDevices) || logicalDevices.length === 0) {
      throw new ValueError(`${what}: give a list of tf.config.LogicalDeviceConfiguration`);
    }
    logical = logicalDevices.map((config) => {
      const memoryLimit = (config as { memoryLimit?: unknown } | null)?.memoryLimit;
      if (memoryLimit === undefined || memoryLimit === null) {
        throw new ValueError('Setting memory limit is required for GPU virtual devices');
      }
      return { memoryLimit: memoryLimit as number };
    });
  }
  const current = physicalSettings(currentDeviceSettings(), index);
  if (sameLogical(current.logical, logical)) return;
  if (current.memoryGrowth && logical !== null) {
    throw new ValueError(
      'Cannot set virtual device configuration on a device with memory growth enabled: ' +
        'logical GPUs have fixed memory limits (call setMemoryGrowth(gpu, false) first)',
    );
  }
  configureDevices('virtual', (s) => withPhysicalSettings(s, index, { logical }));
}

function getLogicalDeviceConfiguration(device: unknown): LogicalDeviceConfiguration[] | null {
  const index = physicalGpuIndex(device, 'getLogicalDeviceConfiguration');
  const logical = physicalSettings(currentDeviceSettings(), index).logical;
  return (
    logical?.map((l) => new LogicalDeviceConfiguration({ memoryLimit: l.memoryLimit })) ?? null
  );
}

function setMemoryGrowth(device: unknown, enable: unknown): void {
  const index = physicalGpuIndex(device, 'setMemoryGrowth');
  const on = boolArg(enable, 'setMemoryGrowth: enable');
  const current = physicalSettings(currentDeviceSettings(), index);
  if (current.logical !== null) {
    throw new ValueError('Cannot set memory growth on device when virtual devices configured');
  }
  if (current.memoryGrowth === on) return;
  configureDevices('physical', (s) => withPhysicalSettings(s, index, { memoryGrowth: on }));
}

function setVisibleDevices(devices: unknown, deviceType?: string): void {
  const type = typeFilter(deviceType);
  const list = Array.isArray(devices) ? devices : [devices];
  if (type === 'CPU') {
    if (list.length === 0) throw new ValueError('The CPU cannot be hidden');
    return;
  }
  const indices = list
    .filter((d) => parseDeviceName(deviceNameOf(d)).kind === 'gpu')
    .map((d) => physicalGpuIndex(d, 'setVisibleDevices'));
  const all = physicalGpus().map((g) => g.index);
  const next =
    indices.length === all.length && all.every((i) => indices.includes(i)) ? null : indices;
  const current = currentDeviceSettings().visible;
  if (JSON.stringify(current) === JSON.stringify(next)) return;
  configureDevices('visible', (s) => ({ ...s, visible: next }));
}

function getVisibleDevices(deviceType?: string): PhysicalDevice[] {
  const visible = currentDeviceSettings().visible;
  return ofType(
    allPhysical().filter(
      (d) =>
        d.deviceType === 'CPU' ||
        visible === null ||
        visible.includes(parseDeviceName(d.name).index),
    ),
    deviceType,
  );
}

/** TensorFlow names memory-info devices 'GPU:0'; ours 'gpu:0'. */
function logicalDeviceName(device: unknown): string {
  return parseDeviceName(deviceNameOf(device).replace(/^(GPU|CPU):/i, '/device:$1:')).name;
}

function getDeviceDetails(device: unknown): Record<string, unknown> {
  const gpu = physicalGpus()[physicalGpuIndex(device, 'getDeviceDetails')];
  return {
    deviceName: gpu.info.label,
    vendor: gpu.info.vendor,
    architecture: gpu.info.architecture,
    powerPreference: gpu.powerPreference,
    cpuEmulation: gpu.fallback,
    limits: { ...gpu.limits },
    features: [...gpu.features],
  };
}

export const config = {
  PhysicalDevice,
  LogicalDevice,
  LogicalDeviceConfiguration,
  /** Every device of the type, visible or not (as TensorFlow). */
  listPhysicalDevices: (deviceType?: string): PhysicalDevice[] => ofType(allPhysical(), deviceType),
  /** The devices computations can use; listing them fixes the configuration, as in TensorFlow. */
  listLogicalDevices,
  setVisibleDevices,
  getVisibleDevices,
  setLogicalDeviceConfiguration,
  getLogicalDeviceConfiguration,
  experimental: {
    listPhysicalDevices: (deviceType?: string): PhysicalDevice[] =>
      ofType(allPhysical(), deviceType),
    listLogicalDevices,
    setVisibleDevices,
    getVisibleDevices,
    setMemoryGrowth,
    getMemoryGrowth: (device: unknown): boolean =>
      physicalSettings(currentDeviceSettings(), physicalGpuIndex(device, 'getMemoryGrowth'))
        .memoryGrowth,
    VirtualDeviceConfiguration: LogicalDeviceConfiguration,
    setVirtualDeviceConfiguration: setLogicalDeviceConfiguration,
    getVirtualDeviceConfiguration: getLogicalDeviceConfiguration,
    getDeviceDetails,
    /** `{ current, peak }` bytes of a logical device ('GPU:0', '/device:GPU:0', …). */
    getMemoryInfo: (device: unknown): { current: number; peak: number } => {
      const name = logicalDeviceName(device);
      return { current: memoryAllocated(name), peak: maxMemoryAllocated(name) };
    },
    getMemoryUsage: (device: unknown): number => memoryAllocated(logicalDeviceName(device)),
    resetMemoryStats: (device: unknown): void => resetPeakMemoryStats(logicalDeviceName(device)),
  },
};
