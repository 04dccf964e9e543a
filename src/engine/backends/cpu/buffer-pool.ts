/**
 * Released CPU buffers kept for reuse by size: a training step or a repeated product allocates
 * the same sizes every time, and a fresh ArrayBuffer costs a zero-fill plus a page fault per
 * 4 KiB on first touch (~0.1 s for a 400 MB product) — reuse costs nothing. Contents are stale,
 * as with the WebGPU backend's pool: every kernel writes all of its output.
 */
import { CpuBuffer } from './buffer';

/** Bytes the pool may hold in total; past it, released buffers go to the garbage collector. */
const MAX_POOLED_BYTES = 512 << 20;
/** Buffers kept per size. */
const MAX_PER_SIZE = 8;

export class CpuBufferPool {
  private readonly free = new Map<number, CpuBuffer[]>();
  private pooledBytes = 0;

  /** A released buffer of exactly `bytes`, or a new one. */
  take(bytes: number): CpuBuffer {
    const list = this.free.get(bytes);
    const buffer = list?.pop();
    if (!buffer) return new CpuBuffer(bytes);
    this.pooledBytes -= buffer.f32.byteLength;
    return buffer;
  }

  give(buffer: CpuBuffer): void {
    const size = buffer.f32.byteLength;
    if (this.pooledBytes + size > MAX_POOLED_BYTES) return;
    let list = this.free.get(buffer.bytes);
    if (!list) this.free.set(buffer.bytes, (list = []));
    if (list.length >= MAX_PER_SIZE || list.includes(buffer)) return;
    list.push(buffer);
    this.pooledBytes += size;
  }

  clear(): void {
    this.free.clear();
    this.pooledBytes = 0;
  }

  /** Bytes held for reuse (for tests). */
  get bytes(): number {
    return this.pooledBytes;
  }
}
