/**
 * A Device is one place tensors live: a canonical name, a kind, the backend instance that runs its
 * kernels, and the memory account every allocation on it passes through. Logical GPUs are simply
 * several Devices, each with its own backend instance and limit.
 */
import type { Backend, DeviceBuffer } from '../backend';
import type { DeviceKind } from './device-name';
import { MemoryAccount } from './memory-account';

export interface DeviceInfo {
  /** Human-readable adapter name, e.g. 'google swiftshader' or 'CPU'. */
  label: string;
  vendor: string;
  architecture: string;
}

export class Device {
  readonly memory: MemoryAccount;

  constructor(
    readonly name: string,
    readonly kind: DeviceKind,
    readonly index: number,
    readonly backend: Backend,
    readonly info: DeviceInfo,
  ) {
    this.memory = new MemoryAccount(name);
  }

  /** The one accounting point: every buffer on this device is allocated here. */
  allocate(bytes: number): DeviceBuffer {
    this.memory.reserve(bytes);
    try {
      return this.backend.allocate(bytes);
    } catch (error) {
      this.memory.free(bytes);
      throw error;
    }
  }

  free(buffer: DeviceBuffer, bytes: number): void {
    this.memory.free(bytes);
    this.backend.release(buffer);
  }

  toString(): string {
    return this.name;
  }
}
