/** Reference-counted device memory shared by a tensor and all its views. */
import type { DeviceBuffer, DType } from './backend';
import type { Device } from './devices/device';
import { bytesPerElement } from './dtype';

export class Storage {
  /** Live tensor handles (views and autograd's saved tensors) holding this memory. */
  private refs = 0;
  /** Bumped by every in-place write, so autograd can tell a saved tensor was overwritten. */
  version = 0;
  private freed = false;

  private constructor(
    readonly device: Device,
    readonly buffer: DeviceBuffer,
    readonly bytes: number,
  ) {}

  static allocate(device: Device, dtype: DType, numel: number): Storage {
    const bytes = numel * bytesPerElement(dtype);
    return new Storage(device, device.allocate(bytes), bytes);
  }

  get refCount(): number {
    return this.refs;
  }

  retain(): void {
    this.refs++;
  }

  release(): void {
    this.refs--;
    if (this.refs <= 0 && !this.freed) {
      this.freed = true;
      this.device.free(this.buffer, this.bytes);
    }
  }
}
