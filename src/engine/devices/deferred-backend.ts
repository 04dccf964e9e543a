/**
 * A backend usable before its GPUDevice exists. TensorFlow lets a cell change the logical device
 * configuration and use the new devices on the next line, but opening a WebGPU device is async:
 * until it arrives, every call is recorded (buffers get placeholders) and replayed in order when
 * it does; from then on calls go straight through. Reads simply wait for it.
 */
import type {
  Backend,
  BackendCapabilities,
  CapabilityName,
  DType,
  DeviceBuffer,
  HostBlock,
  LossState,
  TypedArray,
  View,
} from '../backend';
import {
  callKernel,
  mapViews,
  RoutedKernels,
  type KernelArgs,
  type KernelName,
} from '../backends/kernel-table';

/** A buffer handed out before the real backend existed; `real` is set when the log replays. */
class PendingBuffer implements DeviceBuffer {
  real: DeviceBuffer | null = null;
  constructor(readonly bytes: number) {}
}

/**
 * Every kernel is forwarded (recorded until the backend exists) by name, so the real backend's
 * whole kernel table, fused kernels included, stays in use behind this wrapper.
 */
export class DeferredBackend<T extends Backend = Backend> extends RoutedKernels implements Backend {
  readonly kind = 'webgpu' as const;
  /** Resolves with the real backend (or rejects with why it could not be made). */
  readonly ready: Promise<T>;
  private backend: T | null = null;
  private failure: Error | null = null;
  private log: ((backend: T) => void)[] = [];
  /**
   * The first error a replayed call threw: reads replayed after it reject with it, and if none
   * did, the next call throws it (a kernel's error surfaces, as it would have at its call).
   */
  private replayError: Error | null = null;
  private replayReported = false;
  /** Reads waiting in the log: told when the backend cannot be made. */
  private readonly waiting = new Set<(error: Error) => void>();
  /** Loss is known ahead of the backend: it is the real backend's loss, once that exists. */
  private readonly loss: LossState;
  /**
   * Tuning asked of the backend before it exists: a policy is applied as it opens (in call order,
   * like a kernel), and `tuned` waits for it to open, then for its tuning runs.
   */
  private readonly tuning: BackendCapabilities['tuning'] = {
    tuned: async () => {
      const backend = await this.ready.catch(() => null);
      await backend?.capability('tuning')?.tuned();
    },
    setTuningPolicy: (policy) =>
      this.run((backend) => backend.capability('tuning')?.setTuningPolicy(policy)),
  };
  /** The real backend's spilling, with placeholder buffers swapped for their real ones. */
  private readonly spilling: BackendCapabilities['spilling'] = {
    spill: (buffers) =>
      this.backend?.capability('spilling')?.spill(buffers.map((b) => this.real(b))) ?? null,
    restore: (block: HostBlock) => {
      if (this.failure) throw this.failure;
      const spilling = this.backend?.capability('spilling');
      if (!spilling) throw new Error('restore: this backend never spilled');
      return spilling.restore(block);
    },
    discard: (block) => this.backend?.capability('spilling')?.discard(block),
    parkingBytes: () => this.backend?.capability('spilling')?.parkingBytes?.() ?? 0,
  };

  constructor(pending: Promise<T>) {
    super();
    this.ready = pending.then(
      (backend) => {
        this.backend = backend;
        const log = this.log;
        this.log = [];
        // Every call replays, so later allocations and releases still happen; a read waiting
        // behind a failed call rejects with its error instead of waiting for ever.
        this.replayReported = false;
        for (const call of log) {
          try {
            call(backend);
          } catch (error) {
            this.replayError ??= error instanceof Error ? error : new Error(String(error));
          }
        }
        if (this.replayReported) this.replayError = null;
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
    this.loss = {
      lost: this.ready.then((b) => b.capability('loss')?.lost ?? new Promise<never>(() => {})),
      destroy: () => {
        this.ready.then((b) => b.capability('loss')?.destroy()).catch(() => {});
      },
    };
  }

  /** The real backend once it exists. */
  get target(): T | null {
    return this.backend;
  }

  protected route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    this.run((b) =>
      callKernel(
        b,
        name,
        mapViews(args, (v) => this.view(v)),
      ),
    );
  }

  /**
   * The real backend's extras once it exists (spilling waits for it: until then its buffers are
   * placeholders), and its loss and tuning from the start.
   */
  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    if (name === 'loss') return this.loss as BackendCapabilities[K];
    if (name === 'tuning' && !this.backend) return this.tuning as BackendCapabilities[K];
    if (name === 'spilling')
      return this.backend?.capability('spilling')
        ? (this.spilling as BackendCapabilities[K])
        : null;
    return this.backend?.capability(name) ?? null;
  }

  /** Throws (once) the error a replayed call threw that no read has reported. */
  private surfaceReplayError(): void {
    const error = this.replayError;
    if (!error) return;
    this.replayError = null;
    throw error;
  }

  private run(call: (backend: T) => void): void {
    if (this.failure) throw this.failure;
    this.surfaceReplayError();
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
      b.writeAsync(this.real(buffer), data);
    });
  }

  /** A read is ordered like a kernel: a buffer released after it was asked for is still read. */
  read(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): Promise<TypedArray> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.backend) {
      try {
        this.surfaceReplayError();
      } catch (error) {
        return Promise.reject(error);
      }
      return this.backend.read(this.real(buffer), dtype, offset, length);
    }
    return new Promise((resolve, reject) => {
      this.waiting.add(reject);
      this.log.push((backend) => {
        this.waiting.delete(reject);
        if (this.replayError) {
          this.replayReported = true;
          reject(this.replayError);
        } else backend.read(this.real(buffer), dtype, offset, length).then(resolve, reject);
      });
    });
  }

  async synchronize(): Promise<void> {
    const backend = await this.ready;
    await backend.synchronize();
  }

  emptyCache(): void {
    if (this.failure) return;
    this.run((b) => b.emptyCache());
  }
}
