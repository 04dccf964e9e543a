/**
 * Reference-counted device memory shared by a tensor and all its views. Between uses it may be
 * spilled to host memory by a step sweep (memory.ts, layer 4); reading `buffer` brings it back,
 * so every kernel, read and write sees the same values whether or not it was spilled.
 */
import type { DeviceBuffer, DType, HostBlock } from './backend';
import type { Device } from './devices/device';
import { bytesPerElement } from './dtype';
import { ParkingLot } from './parking';

/** Each device's parked storages (parking.ts), oldest first. */
const lots = new WeakMap<Device, ParkingLot<Storage>>();

function lotOf(device: Device): ParkingLot<Storage> {
  let lot = lots.get(device);
  if (!lot) {
    lots.set(device, (lot = new ParkingLot<Storage>()));
    // An allocation (or a restore) that would pass the device's budget spills parked memory first.
    device.memory.reclaim = (bytes) => Storage.spillAll(lot?.takeOldest(bytes) ?? []);
  }
  return lot;
}

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
  /** Whether a step sweep parked it (parking.ts): on the device, first in line to be spilled. */
  private parked = false;
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

  get isParked(): boolean {
    return this.parked;
  }

  /** Records a use in step `generation`; a parked storage in use is no longer a candidate. */
  markUsed(generation: number): void {
    this.lastUsed = generation;
    if (this.parked) this.unpark();
  }

  /** A persistent tensor shares this memory: it stays on its device. */
  pin(): void {
    this.pinned = true;
    if (this.parked) this.unpark();
  }

  private unpark(): void {
    this.parked = false;
    lots.get(this.device)?.remove(this);
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
      if (this.parked) this.unpark();
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
   * Parks step-sweep candidates on their devices (parking.ts), then spills the oldest parked
   * storages of any device whose parked bytes pass its cap (`MemoryAccount.parkingCap`).
   */
  static parkAll(storages: Iterable<Storage>): void {
    const devices = new Set<Device>();
    for (const s of storages) {
      if (s.freed || s.parked || s.deviceBuffer === null || s.bytes === 0) continue;
      s.parked = true;
      lotOf(s.device).add(s);
      devices.add(s.device);
    }
    for (const device of devices) {
      const lot = lotOf(device);
      const over = lot.bytes - device.parkingCap();
      if (over > 0) Storage.spillAll(lot.takeOldest(over));
    }
  }

  /** Bytes parked on `device` now. */
  static parkedBytes(device: Device): number {
    return lots.get(device)?.bytes ?? 0;
  }

  /**
   * Spills storages to host memory, one backend call per device (one staging copy on WebGPU).
   * Storages a device cannot spill stay where they are.
   */
  static spillAll(storages: Iterable<Storage>): void {
    const byDevice = new Map<Device, Storage[]>();
    for (const s of storages) {
      if (s.parked) s.unpark();
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
