/** Per-device memory bookkeeping: bytes in use, the peak, and an optional enforced limit. */

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${units[unit]} (${bytes} bytes)`;
}

/** Thrown before anything is allocated, so the failed operation leaves every tensor usable. */
export class DeviceMemoryError extends Error {
  override name = 'DeviceMemoryError';
  constructor(
    readonly device: string,
    readonly requested: number,
    readonly inUse: number,
    readonly limit: number,
  ) {
    super(
      `Out of memory on ${device}: tried to allocate ${formatBytes(requested)} with ` +
        `${formatBytes(inUse)} already in use and a limit of ${formatBytes(limit)}. ` +
        `Free tensors (dispose(), tidy()) or raise the device's memory limit.`,
    );
  }
}

export class MemoryAccount {
  /** Device bytes held by live storages; the limit applies to this figure alone. */
  inUse = 0;
  peak = 0;
  /** Bytes of this device's tensors spilled to host memory (memory.ts, layer 4). */
  spilled = 0;
  /** Bytes ever spilled and restored, for measuring what the lifetime rules cost. */
  spilledTotal = 0;
  restoredTotal = 0;
  /** Bytes; null means no limit. */
  limit: number | null = null;
  /** Spills parked memory (storage.ts) to free at least `bytes`; set once something is parked. */
  reclaim: ((bytes: number) => void) | null = null;
  /** The most bytes kept parked (parking.ts) before the oldest are spilled; null: derived. */
  parkingLimit: number | null = null;

  constructor(readonly device: string) {}

  /** Claims bytes or throws DeviceMemoryError without changing anything. */
  reserve(bytes: number): void {
    // Parked memory gives way first: it is spilled only now that the budget is actually short.
    if (this.limit !== null && this.inUse + bytes > this.limit) {
      this.reclaim?.(this.inUse + bytes - this.limit);
    }
    if (this.limit !== null && this.inUse + bytes > this.limit) {
      throw new DeviceMemoryError(this.device, bytes, this.inUse, this.limit);
    }
    this.inUse += bytes;
    if (this.inUse > this.peak) this.peak = this.inUse;
  }

  free(bytes: number): void {
    this.inUse -= bytes;
  }

  /** Device bytes that moved to the host. */
  spill(bytes: number): void {
    this.inUse -= bytes;
    this.spilled += bytes;
    this.spilledTotal += bytes;
  }

  /** Host bytes coming back to the device: claimed like an allocation, so the limit holds. */
  restore(bytes: number): void {
    this.reserve(bytes);
    this.spilled -= bytes;
    this.restoredTotal += bytes;
  }

  /** Host bytes nobody holds any more. */
  forgetSpilled(bytes: number): void {
    this.spilled -= bytes;
  }

  resetPeak(): void {
    this.peak = this.inUse;
  }
}
