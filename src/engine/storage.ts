/**
 * Reference-counted device memory shared by a tensor and all its views. Between uses it may be
 * spilled to host memory by a step sweep (memory.ts, layer 4); reading `buffer` brings it back,
 * so every kernel, read and write sees the same values whether or not it was spilled.
 */
import type { DeviceBuffer, DType, HostBlock } from './backend';
import type { Device } from './devices/device';
import { bytesPerElement } from './dtype';

export class Storage {
  /** Live tensor handles (views and autograd's saved tensors) holding this memory. */
  private refs = 0;
  /** Bumped by every in-place write, so autograd can tell a saved tensor was overwritten. */
  version = 0;
  private freed = false;
  /** The device memory, or null while spilled. */
  private deviceBuffer: DeviceBuffer | null;
  /** The host copy while spilled. */
  private host: HostBlock | null = null;
  /** The step generation this memory was last used in by any tensor sharing it (memory.ts). */
  lastUsed: number;
  /** Set when a persistent tensor (keep(): parameters, optimizer state) shares this memory. */
  pinned = false;

  private constructor(
    readonly device: Device,
    buffer: DeviceBuffer,
    readonly bytes: number,
    readonly generation: number,
  ) {
    this.deviceBuffer = buffer;
    this.lastUsed = generation;
  }

  /** `generation` is the step it is made in (memory.ts's `currentGeneration()`). */
  static allocate(device: Device, dtype: DType, numel: number, generation: number): Storage {
    const bytes = numel * bytesPerElement(dtype);
    return new Storage(device, device.allocate(bytes), bytes, generation);
  }

  /** The device memory, brought back from the host first if it was spilled. */
  get buffer(): DeviceBuffer {
    if (this.deviceBuffer === null) this.restore();
    return this.deviceBuffer as DeviceBuffer;
  }

  get spilled(): boolean {
    return this.host !== null;
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
      if (this.host !== null) this.device.discard(this.host, this.bytes);
      else if (this.deviceBuffer !== null) this.device.free(this.deviceBuffer, this.bytes);
      this.host = null;
      this.deviceBuffer = null;
    }
  }

  private restore(): void {
    if (this.freed || this.host === null) throw new Error('Storage used after it was freed');
    this.deviceBuffer = this.device.restore(this.host, this.bytes);
    this.host = null;
  }

  /**
   * Spills storages to host memory, one backend call per device (one staging copy on WebGPU).
   * Storages a device cannot spill stay where they are.
   */
  static spillAll(storages: Iterable<Storage>): void {
    const byDevice = new Map<Device, Storage[]>();
    for (const s of storages) {
      if (s.freed || s.deviceBuffer === null || s.bytes === 0) continue;
      let list = byDevice.get(s.device);
      if (!list) byDevice.set(s.device, (list = []));
      list.push(s);
    }
    for (const [device, list] of byDevice) {
      const blocks = device.spill(
        list.map((s) => s.deviceBuffer as DeviceBuffer),
        list.map((s) => s.bytes),
      );
      if (blocks === null) continue;
      list.forEach((s, i) => {
        s.host = blocks[i];
        s.deviceBuffer = null;
      });
    }
  }
}
