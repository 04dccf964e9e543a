/**
 * Pools GPU buffers by size class (one pool per usage) so memory freed by one tensor is reused by
 * the next without asking the driver again; `emptyCache` destroys what sits unused.
 */

/** Smallest class: tiny tensors share one size, and every class is a multiple of 16 (vec4). */
const MIN_CLASS = 256;

/**
 * Rounds a byte count up to its size class: four classes per power of two, so at most 25% of a
 * buffer is slack while nearby sizes (a batch that shrinks by one row) still share buffers.
 */
export function sizeClass(bytes: number, maxBufferSize = Infinity): number {
  const rounded = Math.max(MIN_CLASS, Math.ceil(bytes / 16) * 16);
  if (rounded <= MIN_CLASS) return MIN_CLASS;
  const step = 2 ** Math.floor(Math.log2(rounded - 1)) / 4;
  const size = Math.ceil(rounded / step) * step;
  return size <= maxBufferSize ? size : rounded;
}

export interface PoolStats {
  /** Buffers handed out and not yet given back. */
  readonly liveBuffers: number;
  readonly liveBytes: number;
  /** Buffers waiting in the pool for reuse. */
  readonly freeBuffers: number;
  readonly freeBytes: number;
  /** Buffers ever created by the driver (reuse keeps this flat). */
  readonly createdBuffers: number;
}

export class BufferPool {
  private readonly free = new Map<number, GPUBuffer[]>();
  private liveBuffers = 0;
  private liveBytes = 0;
  private freeBuffers = 0;
  private freeBytes = 0;
  private createdBuffers = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly usage: GPUBufferUsageFlags,
    private readonly label: string,
  ) {}

  /** A buffer of at least `bytes` bytes (its `size` is the size class). */
  acquire(bytes: number): GPUBuffer {
    const size = sizeClass(bytes, this.device.limits.maxBufferSize);
    const list = this.free.get(size);
    let buffer = list?.pop();
    if (buffer) {
      this.freeBuffers--;
      this.freeBytes -= size;
    } else {
      buffer = this.device.createBuffer({ size, usage: this.usage, label: this.label });
      this.createdBuffers++;
    }
    this.liveBuffers++;
    this.liveBytes += size;
    return buffer;
  }

  /**
   * Returns a buffer for reuse. Safe even while queued GPU work still uses it: later users are
   * encoded after that work, and the queue runs them in order.
   */
  recycle(buffer: GPUBuffer): void {
    const size = buffer.size;
    let list = this.free.get(size);
    if (!list) {
      list = [];
      this.free.set(size, list);
    }
    list.push(buffer);
    this.liveBuffers--;
    this.liveBytes -= size;
    this.freeBuffers++;
    this.freeBytes += size;
  }

  /** Destroys every pooled buffer; call only once queued work that used them has been submitted. */
  emptyCache(): void {
    for (const list of this.free.values()) for (const buffer of list) buffer.destroy();
    this.free.clear();
    this.freeBuffers = 0;
    this.freeBytes = 0;
  }

  stats(): PoolStats {
    return {
      liveBuffers: this.liveBuffers,
      liveBytes: this.liveBytes,
      freeBuffers: this.freeBuffers,
      freeBytes: this.freeBytes,
      createdBuffers: this.createdBuffers,
    };
  }
}
