/** The engine's public surface: tensors, devices, autograd, lifetimes, ops and formatting. */
import { runScoped, tensorsIn } from './memory';
import { Tensor } from './tensor';

export { Tensor } from './tensor';
export { ValuesIndices } from './tensor';
export type { Dims, DimOptions, NestedNumbers, ReduceOptions } from './tensor';
export type { Backend, DType, TypedArray } from './backend';
export { parseDType, isDTypeName } from './dtype';
export { ShapeError } from './shape';

// Devices.
export { Device, type DeviceInfo } from './devices/device';
export { parseDeviceName, type DeviceSpec, type DeviceKind } from './devices/device-name';
export { DeviceMemoryError } from './devices/memory-account';
export {
  addGpuDevice,
  configureDevices,
  cpu,
  currentDeviceSettings,
  getDevice,
  gpuDevices,
  gpusInitialized,
  gpuUnavailable,
  initEngine,
  listDevices,
  markGpusInitialized,
  onDeviceLost,
  physicalGpus,
  recoverLostDevices,
  removeGpuDevices,
  RuntimeError,
  type ConfigurationKind,
  type DeviceLostEvent,
  type EngineStatus,
} from './devices/registry';
export type { PhysicalGpu } from './devices/physical';
export {
  DeviceSettingsError,
  parseDeviceSettings,
  physicalSettings,
  withPhysicalSettings,
  type DeviceSettings,
  type LogicalGpuSettings,
  type PhysicalGpuSettings,
} from './devices/settings';
export {
  deviceReport,
  memorySnapshot,
  type DeviceReport,
  type LogicalGpuReport,
  type MemorySnapshot,
  type PhysicalGpuReport,
} from './devices/report';
export { DeviceLostError } from './devices/lost-backend';
export { tuningAtFirstUse } from './devices/tuning';
export { defaultDevice, withTfDevice, type Flavor } from './devices/placement';
export {
  emptyCache,
  maxMemoryAllocated,
  memoryAllocated,
  memoryReserved,
  memoryParked,
  memorySpilled,
  resetPeakMemoryStats,
  setMemoryLimit,
  setParkingLimit,
  spillTraffic,
  synchronize,
} from './devices/stats';

// Data parallelism.
export { ReplicaSet } from './parallel/replicas';
export {
  chunkSizes,
  gather,
  scatter,
  scatterStructure,
  gatherStructure,
} from './parallel/scatter-gather';

// Autograd and lifetimes.
export { enableGrad, isGradEnabled, noGrad, setGradEnabled } from './autograd';
export { fusionEnabled, setFusion } from './backends/fusion/flag';
export { memoryStats, setRootProvider, stepBoundary } from './memory';

// Randomness.
export { defaultGenerator, Generator, manualSeed } from './random';

// Ops.
export * as ops from './ops';
export {
  BINARY_OPS,
  binaryRow,
  opsWithFace,
  UNARY_OPS,
  unaryRow,
  type BinaryOp,
  type ModuleName,
  type UnaryOp,
  type WithFace,
} from './elementwise-table';

// Formatting and the calling convention.
export { formatTensor, formatValues, type FormatOptions, type TensorMeta } from './format';
export * as args from './args';

/**
 * Runs fn and releases every tensor it created except those it returns (in a tensor, array or
 * plain object). Optional: the engine frees training-loop temporaries without it.
 */
export function tidy<T>(fn: () => T): T {
  return runScoped(
    fn,
    (result) => tensorsIn(result, (v): v is Tensor => v instanceof Tensor),
    'tidy',
  );
}

/** Releases tensors now (any later use throws). */
export function dispose(value: unknown): void {
  for (const t of tensorsIn(value, (v): v is Tensor => v instanceof Tensor)) t.dispose();
}

/** Marks tensors persistent: step sweeps never release them. */
export function keep<T>(value: T): T {
  for (const t of tensorsIn(value, (v): v is Tensor => v instanceof Tensor)) t.keep();
  return value;
}
