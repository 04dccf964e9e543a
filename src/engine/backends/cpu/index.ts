/**
 * The CPU backend: typed-array loops that run at once. Copies from a GPU can only arrive later, so
 * the backend also keeps an in-order queue: while a copy is pending every kernel is queued behind
 * it (like work on a GPU queue), and `read`/`synchronize` wait for the queue to drain.
 */
import type {
  Backend,
  BackendCapabilities,
  CapabilityName,
  DType,
  DeviceBuffer,
  HostBlock,
  TypedArray,
} from '../../backend';
import { RoutedKernels, runKernel, type KernelArgs, type KernelName } from '../kernel-table';
import { CpuBuffer, asCpuBuffer } from './buffer';
import { CpuBufferPool } from './buffer-pool';
import { cpuKernels } from './kernels';

export { CpuBuffer };

class CpuHostBlock implements HostBlock {
  constructor(readonly buffer: CpuBuffer) {}
  get bytes(): number {
    return this.buffer.bytes;
  }
}

function hostBlockOf(block: HostBlock): CpuHostBlock {
  if (!(block instanceof CpuHostBlock))
    throw new Error("CPU backend was handed another backend's host block");
  return block;
}

export class CpuBackend extends RoutedKernels implements Backend {
  readonly kind = 'cpu' as const;
  /** Tail of queued work; null when everything has run (the usual case). */
  private pending: Promise<void> | null = null;
  private queuedError: unknown = null;
  /** Released buffers for reuse (see buffer-pool.ts). */
  readonly pool = new CpuBufferPool();

  private readonly capabilities: Partial<BackendCapabilities> = {
    spilling: this,
    syncRead: this,
    dispatchCount: this,
    // A fused loop binds nothing: inputs and outputs are only bounded by per-block scratch.
    fusionLimits: { maxBuffers: 32, maxInputs: 16, maxScalars: 16, maxSteps: 32, products: false },
  };
  /** Kernels run (or queued) so far: the CPU's counterpart of GPU dispatches. */
  private kernelCalls = 0;

  dispatches(): number {
    return this.kernelCalls;
  }

  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    return this.capabilities[name] ?? null;
  }

  protected route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    this.kernelCalls++;
    this.run(() => runKernel(cpuKernels, this.pool, name, args));
  }

  /** Runs now, or after queued work when a cross-device copy is still on its way. */
  private run(kernel: () => void): void {
    if (this.pending === null) {
      kernel();
      return;
    }
    const tail: Promise<void> = this.pending.then(() => {
      try {
        kernel();
      } catch (error) {
        this.queuedError ??= error;
      }
    });
    this.pending = tail;
    void tail.then(() => {
      if (this.pending === tail) this.pending = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.pending !== null) await this.pending;
    if (this.queuedError !== null) {
      const error = this.queuedError;
      this.queuedError = null;
      throw error;
    }
  }

  /** True when no queued work is outstanding, so buffers can be read synchronously. */
  get idle(): boolean {
    return this.pending === null;
  }

  allocate(bytes: number): DeviceBuffer {
    return this.pool.take(bytes);
  }

  release(buffer: DeviceBuffer): void {
    // While work is queued (behind a copy still on its way) a kernel may yet touch the buffer: it
    // is left to the garbage collector then, and reused only when released with the queue empty.
    if (this.pending === null && buffer instanceof CpuBuffer) this.pool.give(buffer);
  }

  /**
   * The CPU's device memory already is host memory: a spilled buffer simply leaves the device's
   * account (the Device moves its bytes to the host figure) and is kept as it is, so spilling and
   * restoring copy nothing. Queued kernels that still write it write the same memory.
   */
  spill(buffers: readonly DeviceBuffer[]): HostBlock[] {
    return buffers.map((buffer) => new CpuHostBlock(asCpuBuffer(buffer)));
  }

  restore(block: HostBlock): DeviceBuffer {
    return hostBlockOf(block).buffer;
  }

  discard(block: HostBlock): void {
    this.release(hostBlockOf(block).buffer);
  }

  /**
   * The CPU's parked and spilled memory are the same host memory, and its spill is free: parking
   * here only keeps the accounts the way a GPU keeps them. It parks as much as the least buffer
   * any WebGPU device must offer (the spec's default maxBufferSize, 256 MiB), then spills.
   */
  parkingBytes(): number {
    return 256 * 2 ** 20;
  }

  write(buffer: DeviceBuffer, data: TypedArray): void {
    const target = asCpuBuffer(buffer);
    // A queued write must not see later changes the caller makes to its array.
    const values = this.pending === null ? data : data.slice();
    this.run(() => (values instanceof Int32Array ? target.i32 : target.f32).set(values));
  }

  writeAsync(buffer: DeviceBuffer, data: Promise<TypedArray>): void {
    const target = asCpuBuffer(buffer);
    const previous = this.pending ?? Promise.resolve();
    const tail = Promise.all([previous, data]).then(
      ([, values]) => {
        (values instanceof Int32Array ? target.i32 : target.f32).set(values);
      },
      (error: unknown) => {
        this.queuedError ??= error;
      },
    );
    this.pending = tail;
    void tail.then(() => {
      if (this.pending === tail) this.pending = null;
    });
  }

  async read(
    buffer: DeviceBuffer,
    dtype: DType,
    offset: number,
    length: number,
  ): Promise<TypedArray> {
    // Copied now when nothing is queued: the tensor may be disposed (and its buffer reused)
    // before the caller's await resumes.
    if (this.pending === null && this.queuedError === null) {
      return this.readNow(buffer, dtype, offset, length);
    }
    await this.drain();
    return this.readNow(buffer, dtype, offset, length);
  }

  /** A copy of the data when no queued work is outstanding, else null. */
  readSync(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): TypedArray | null {
    return this.pending === null ? this.readNow(buffer, dtype, offset, length) : null;
  }

  private readNow(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): TypedArray {
    const source = asCpuBuffer(buffer);
    const array = dtype === 'int32' ? source.i32 : source.f32;
    return array.slice(offset, offset + length);
  }

  async synchronize(): Promise<void> {
    await this.drain();
  }

  emptyCache(): void {
    this.pool.clear();
  }
}
