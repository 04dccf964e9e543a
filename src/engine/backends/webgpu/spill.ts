/**
 * Spilling on WebGPU (memory.ts, layer 4): one sweep's buffers are copied into one mappable
 * staging buffer (host-visible memory) with one copy command each and released to the pool at
 * once, so device memory drops in the same synchronous step even in a loop that never awaits;
 * one `mapAsync` then brings the bytes into ordinary ArrayBuffers (one per block, so the garbage
 * collector can free each with its tensor) and the staging buffer goes back to its pool.
 *
 * Restoring before the map has landed is still synchronous for the program: the new buffer is
 * filled with `writeAfter`, which holds later submits until the bytes arrive. The staging copy is
 * submitted before that hold, so the wait always ends.
 */
import type { DeviceBuffer, HostBlock } from '../../backend';
import type { BufferPool } from './buffer-pool';
import type { CommandQueue } from './command-queue';
import { unwrap, type WebGPUBuffer } from './gpu-buffer';

export class GpuHostBlock implements HostBlock {
  /** The bytes once the map has landed (null before, and once restored or discarded). */
  data: ArrayBuffer | null = null;
  /** Set by discard: nobody will restore this block, so the landing need not copy it out. */
  discarded = false;
  /** Set by restore: the landing hands the bytes to the waiting write and keeps none. */
  restored = false;

  constructor(
    readonly bytes: number,
    /** The bytes, once mapped (an empty buffer for a discarded block). */
    readonly arrived: Promise<ArrayBuffer>,
  ) {}
}

export function hostBlockOf(block: HostBlock): GpuHostBlock {
  if (!(block instanceof GpuHostBlock)) {
    throw new Error("WebGPU backend was handed another backend's host block");
  }
  return block;
}

interface SpillTarget {
  readonly device: GPUDevice;
  readonly queue: CommandQueue;
  readonly staging: BufferPool;
  release(buffer: DeviceBuffer): void;
}

/** Copies buffers out in staging chunks of at most the device's buffer size; releases them. */
export function spillBuffers(
  target: SpillTarget,
  buffers: readonly DeviceBuffer[],
): GpuHostBlock[] {
  const owned = buffers.map(unwrap);
  const maxChunk = Math.min(target.device.limits.maxBufferSize, 256 * 1024 * 1024);
  const blocks: GpuHostBlock[] = [];
  let chunk: WebGPUBuffer[] = [];
  let chunkBytes = 0;
  const emit = (): void => {
    if (chunk.length > 0) blocks.push(...spillChunk(target, chunk, chunkBytes));
    chunk = [];
    chunkBytes = 0;
  };
  for (const buffer of owned) {
    const bytes = paddedBytes(buffer);
    if (chunkBytes + bytes > maxChunk) emit();
    chunk.push(buffer);
    chunkBytes += bytes;
  }
  emit();
  for (const buffer of buffers) target.release(buffer);
  target.queue.flush();
  return blocks;
}

/** Copies are whole 4-byte words (every dtype is 4 bytes wide; pooled buffers are larger still). */
function paddedBytes(buffer: WebGPUBuffer): number {
  return Math.max(4, Math.ceil(buffer.bytes / 4) * 4);
}

function spillChunk(target: SpillTarget, buffers: WebGPUBuffer[], total: number): GpuHostBlock[] {
  const staging = target.staging.acquire(total);
  const offsets: number[] = [];
  let offset = 0;
  for (const buffer of buffers) {
    offsets.push(offset);
    const bytes = paddedBytes(buffer);
    target.queue.copy(buffer.gpu, 0, staging, offset, bytes);
    offset += bytes;
  }
  const blocks: GpuHostBlock[] = [];
  const landed = (async (): Promise<ArrayBuffer[]> => {
    // The copies may be held behind host data still on its way; map only once they are submitted.
    await target.queue.submitted();
    await staging.mapAsync(GPUMapMode.READ, 0, total);
    const range = staging.getMappedRange(0, total);
    const slices = buffers.map((buffer, i) =>
      blocks[i].discarded
        ? new ArrayBuffer(0)
        : range.slice(offsets[i], offsets[i] + paddedBytes(buffer)),
    );
    staging.unmap();
    target.staging.recycle(staging);
    return slices;
  })();
  buffers.forEach((buffer, i) => {
    const arrived = landed.then((slices) => slices[i]);
    const block = new GpuHostBlock(buffer.bytes, arrived);
    arrived.then(
      (data) => {
        if (!block.discarded && !block.restored) block.data = data;
      },
      // A failed map (a lost device) surfaces through the restore that waits for it.
      () => {},
    );
    blocks.push(block);
  });
  return blocks;
}
