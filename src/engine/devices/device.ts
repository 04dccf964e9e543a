/**
 * A Device is one place tensors live: a canonical name, a kind, the backend instance that runs its
 * kernels, and the memory account every allocation on it passes through. Logical GPUs are simply
 * several Devices, each with its own backend instance (its own GPUDevice) and limit.
 */
import type {
  Backend,
  BackendCapabilities,
  CapabilityName,
  DeviceBuffer,
  HostBlock,
} from '../backend';
import { fusionEnabled } from '../backends/fusion/flag';
import { FusingBackend } from '../backends/fusion/fusing-backend';
import type { DeviceKind } from './device-name';
import { lostBackend } from './lost-backend';
import { MemoryAccount } from './memory-account';

export interface DeviceInfo {
  /** Human-readable adapter name, e.g. 'google swiftshader' or 'CPU'. */
  label: string;
  vendor: string;
  architecture: string;
}

export class Device {
  readonly memory: MemoryAccount;
  /** Whether anything was ever allocated here (TensorFlow's "initialized"). */
  used = false;
  /** Why the device was lost, or null while it works. */
  lostReason: string | null = null;
  private currentBackend: Backend;
  /** Records element-wise chains over `currentBackend` while fusion is on (backends/fusion/). */
  private readonly fusing: FusingBackend;

  constructor(
    readonly name: string,
    readonly kind: DeviceKind,
    readonly index: number,
    backend: Backend,
    readonly info: DeviceInfo,
    /** The physical GPU a logical GPU lives on (null for the cpu and test devices). */
    readonly physical: number | null = null,
  ) {
    this.memory = new MemoryAccount(name);
    this.currentBackend = backend;
    this.fusing = new FusingBackend(() => this.currentBackend);
  }

  /** What ops call: the backend itself, or with fusion on the recorder in front of it. */
  get backend(): Backend {
    return fusionEnabled() ? this.fusing : this.currentBackend;
  }

  /** The backend itself (WebGPU, CPU, deferred, lost), never the fusion recorder. */
  get realBackend(): Backend {
    return this.currentBackend;
  }

  /** The backend's named extra (profiling, pool statistics, …), or null when it has none now. */
  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    // Through the recorder, which runs a pending chain first (a spill or sync read then sees it).
    return this.backend.capability(name);
  }

  /** The one accounting point: every buffer on this device is allocated here. */
  allocate(bytes: number): DeviceBuffer {
    this.memory.reserve(bytes);
    try {
      const buffer = this.currentBackend.allocate(bytes);
      this.used = true;
      return buffer;
    } catch (error) {
      this.memory.free(bytes);
      throw error;
    }
  }

  free(buffer: DeviceBuffer, bytes: number): void {
    this.memory.free(bytes);
    // Always through the recorder: it holds a buffer a pending step still uses until it has run.
    this.fusing.release(buffer);
  }

  /**
   * Moves buffers' contents to host memory and frees their device bytes (memory.ts, layer 4);
   * null when this device cannot spill (no spilling backend, lost, or not opened yet).
   */
  spill(buffers: readonly DeviceBuffer[], bytes: readonly number[]): HostBlock[] | null {
    const spilling = this.lostReason === null ? this.capability('spilling') : null;
    if (!spilling) return null;
    const blocks = spilling.spill(buffers);
    if (blocks !== null) for (const b of bytes) this.memory.spill(b);
    return blocks;
  }

  /**
   * How many bytes step sweeps may leave parked here (parking.ts): the figure set for it, else
   * the memory limit (allocations past it spill parked memory first), else the backend's own.
   * Asked of the backend itself: the fusion recorder would run a pending chain first.
   */
  parkingCap(): number {
    const m = this.memory;
    const own = this.currentBackend.capability('spilling')?.parkingBytes?.() ?? 0;
    return m.parkingLimit ?? m.limit ?? own;
  }

  /** Brings a spilled block back as device memory, within the limit (or throws, keeping it). */
  restore(block: HostBlock, bytes: number): DeviceBuffer {
    const spilling = this.capability('spilling');
    if (!spilling) throw new Error(`${this.name} cannot restore spilled memory`);
    this.memory.restore(bytes);
    try {
      return spilling.restore(block);
    } catch (error) {
      this.memory.free(bytes);
      this.memory.spilled += bytes;
      this.memory.restoredTotal -= bytes;
      throw error;
    }
  }

  discard(block: HostBlock, bytes: number): void {
    this.memory.forgetSpilled(bytes);
    this.capability('spilling')?.discard(block);
  }

  /** From now on every use of this device fails with a DeviceLostError naming the reason. */
  markLost(reason: string): void {
    this.lostReason = reason;
    this.fusing.forget();
    this.currentBackend = lostBackend(this.name, reason);
  }

  toString(): string {
    return this.name;
  }
}
