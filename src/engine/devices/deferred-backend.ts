/**
 * A backend usable before its GPUDevice exists. TensorFlow lets a cell change the logical device
 * configuration and use the new devices on the next line, but opening a WebGPU device is async:
 * until it arrives, every call is recorded (buffers get placeholders) and replayed in order when
 * it does; from then on calls go straight through. Reads simply wait for it.
 */
import type {
  Backend,
  BinaryOp,
  Conv2dGeometry,
  DType,
  DeviceBuffer,
  GemmOptions,
  HostBlock,
  OutView,
  Pool2dGeometry,
  RandomParams,
  ReduceOp,
  TypedArray,
  UnaryOp,
  View,
} from '../backend';

/** A buffer handed out before the real backend existed; `real` is set when the log replays. */
class PendingBuffer implements DeviceBuffer {
  real: DeviceBuffer | null = null;
  constructor(readonly bytes: number) {}
}

export class DeferredBackend<T extends Backend = Backend> implements Backend {
  readonly kind = 'webgpu' as const;
  /** Resolves with the real backend (or rejects with why it could not be made). */
  readonly ready: Promise<T>;
  private backend: T | null = null;
  private failure: Error | null = null;
  private log: ((backend: T) => void)[] = [];
  /** Reads waiting in the log: told when the backend cannot be made. */
  private readonly waiting = new Set<(error: Error) => void>();

  constructor(pending: Promise<T>) {
    this.ready = pending.then(
      (backend) => {
        this.backend = backend;
        const log = this.log;
        this.log = [];
        for (const call of log) call(backend);
        return backend;
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        this.failure = failure;
        this.log = [];
        for (const reject of this.waiting) reject(failure);
        this.waiting.clear();
        throw failure;
      },
    );
    // Failures surface on the next read or kernel call, not as an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** The real backend once it exists. */
  get target(): T | null {
    return this.backend;
  }

  private run(call: (backend: T) => void): void {
    if (this.failure) throw this.failure;
    if (this.backend) call(this.backend);
    else this.log.push(call);
  }

  private real(buffer: DeviceBuffer): DeviceBuffer {
    if (!(buffer instanceof PendingBuffer)) return buffer;
    if (!buffer.real) throw new Error('a deferred buffer was used before it was allocated');
    return buffer.real;
  }

  private view<V extends View>(v: V): V {
    return v.buffer instanceof PendingBuffer ? { ...v, buffer: this.real(v.buffer) } : v;
  }

  allocate(bytes: number): DeviceBuffer {
    if (this.failure) throw this.failure;
    if (this.backend) return this.backend.allocate(bytes);
    const pending = new PendingBuffer(bytes);
    this.log.push((backend) => {
      pending.real = backend.allocate(bytes);
    });
    return pending;
  }

  release(buffer: DeviceBuffer): void {
    // Releasing memory of a backend that never came to be is a no-op, not an error.
    if (this.failure) return;
    this.run((b) => b.release(this.real(buffer)));
  }

  write(buffer: DeviceBuffer, data: TypedArray): void {
    // The caller may reuse its array once write returns, so a recorded write keeps a copy.
    const copy = this.backend ? data : data.slice();
    this.run((b) => b.write(this.real(buffer), copy));
  }

  writeAsync(buffer: DeviceBuffer, data: Promise<TypedArray>): void {
    this.run((b) => {
      if (!b.writeAsync) throw new Error('the backend has no asynchronous writes');
      b.writeAsync(this.real(buffer), data);
    });
  }

  /** A read is ordered like a kernel: a buffer released after it was asked for is still read. */
  read(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): Promise<TypedArray> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.backend) return this.backend.read(this.real(buffer), dtype, offset, length);
    return new Promise((resolve, reject) => {
      this.waiting.add(reject);
      this.log.push((backend) => {
        this.waiting.delete(reject);
        backend.read(this.real(buffer), dtype, offset, length).then(resolve, reject);
      });
    });
  }

  /** Spills only once the real backend exists (until then its buffers are placeholders). */
  spill(buffers: readonly DeviceBuffer[]): HostBlock[] | null {
    if (!this.backend?.spill) return null;
    return this.backend.spill(buffers.map((b) => this.real(b)));
  }

  restore(block: HostBlock): DeviceBuffer {
    if (this.failure) throw this.failure;
    if (!this.backend?.restore) throw new Error('restore: this backend never spilled');
    return this.backend.restore(block);
  }

  discard(block: HostBlock): void {
    this.backend?.discard?.(block);
  }

  async synchronize(): Promise<void> {
    const backend = await this.ready;
    await backend.synchronize();
  }

  emptyCache(): void {
    if (this.failure) return;
    this.run((b) => b.emptyCache());
  }

  fill(out: OutView, value: number): void {
    this.run((b) => b.fill(this.view(out), value));
  }

  assign(x: View, out: View): void {
    this.run((b) => b.assign(this.view(x), this.view(out)));
  }

  random(out: OutView, params: RandomParams): void {
    this.run((b) => b.random(this.view(out), params));
  }

  unary(op: UnaryOp, x: View, out: OutView): void {
    this.run((b) => b.unary(op, this.view(x), this.view(out)));
  }

  binary(op: BinaryOp, a: View, other: View, out: OutView): void {
    this.run((b) => b.binary(op, this.view(a), this.view(other), this.view(out)));
  }

  binaryScalar(op: BinaryOp, a: View, scalar: number, scalarFirst: boolean, out: OutView): void {
    this.run((b) => b.binaryScalar(op, this.view(a), scalar, scalarFirst, this.view(out)));
  }

  reduce(op: ReduceOp, x: View, reducedDims: number, out: OutView): void {
    this.run((b) => b.reduce(op, this.view(x), reducedDims, this.view(out)));
  }

  matmul(a: View, other: View, out: OutView): void {
    this.run((b) => b.matmul(this.view(a), this.view(other), this.view(out)));
  }

  gemm(a: View, other: View, out: OutView, options: GemmOptions): void {
    this.run((b) =>
      b.gemm(this.view(a), this.view(other), this.view(out), {
        ...options,
        bias: options.bias ? this.view(options.bias) : null,
      }),
    );
  }

  softmax(x: View, out: OutView, log: boolean): void {
    this.run((b) => b.softmax(this.view(x), this.view(out), log));
  }

  gatherColumns(x: View, index: View, out: OutView): void {
    this.run((b) => b.gatherColumns(this.view(x), this.view(index), this.view(out)));
  }

  scatterColumns(values: View, index: View, out: OutView): void {
    this.run((b) => b.scatterColumns(this.view(values), this.view(index), this.view(out)));
  }

  indexSelect(table: View, index: View, out: OutView): void {
    this.run((b) => b.indexSelect(this.view(table), this.view(index), this.view(out)));
  }

  indexAdd(values: View, index: View, out: OutView): void {
    this.run((b) => b.indexAdd(this.view(values), this.view(index), this.view(out)));
  }

  im2col(x: View, geometry: Conv2dGeometry, out: OutView): void {
    this.run((b) => b.im2col(this.view(x), geometry, this.view(out)));
  }

  col2im(columns: View, geometry: Conv2dGeometry, out: OutView): void {
    this.run((b) => b.col2im(this.view(columns), geometry, this.view(out)));
  }

  maxPool2d(x: View, geometry: Pool2dGeometry, out: OutView, indices: OutView): void {
    this.run((b) => b.maxPool2d(this.view(x), geometry, this.view(out), this.view(indices)));
  }

  maxPool2dBackward(gradOut: View, indices: View, geometry: Pool2dGeometry, out: OutView): void {
    this.run((b) =>
      b.maxPool2dBackward(this.view(gradOut), this.view(indices), geometry, this.view(out)),
    );
  }
}
