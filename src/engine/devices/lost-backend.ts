/**
 * What a logical GPU's backend becomes once its GPUDevice is lost: every kernel, allocation and
 * read fails with one clear error naming the device and why, instead of WebGPU's silent no-ops on
 * a dead device; releasing memory still works so lifetimes unwind quietly.
 */
import type {
  Backend,
  BackendCapabilities,
  CapabilityName,
  DeviceBuffer,
  TypedArray,
} from '../backend';
import { RoutedKernels } from '../backends/kernel-table';

export class DeviceLostError extends Error {
  override name = 'DeviceLostError';
  constructor(
    readonly device: string,
    readonly reason: string,
  ) {
    super(
      `${device} was lost (${reason}). Tensors that lived on it are gone; the engine recreated ` +
        `${device}, so run the cells that made them again.`,
    );
  }
}

class LostBackend extends RoutedKernels implements Backend {
  readonly kind = 'webgpu' as const;
  // Spilled blocks of a lost device are simply forgotten; nothing is spilled from it.
  private readonly spilling: BackendCapabilities['spilling'] = {
    spill: () => null,
    restore: () => {
      throw this.error;
    },
    discard: () => {},
  };

  constructor(private readonly error: DeviceLostError) {
    super();
  }

  protected route(): void {
    throw this.error;
  }

  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    return name === 'spilling' ? (this.spilling as BackendCapabilities[K]) : null;
  }

  allocate(): DeviceBuffer {
    throw this.error;
  }
  release(): void {}
  write(): void {
    throw this.error;
  }
  writeAsync(): void {
    throw this.error;
  }
  read(): Promise<TypedArray> {
    return Promise.reject(this.error);
  }
  synchronize(): Promise<void> {
    return Promise.reject(this.error);
  }
  emptyCache(): void {}
}

export function lostBackend(device: string, reason: string): Backend {
  return new LostBackend(new DeviceLostError(device, reason));
}
