/**
 * The WebGPU backend: device memory in pooled GPUBuffers and every contract kernel as a WGSL
 * compute shader, recorded into batched command encoders; `read` is the one place that waits.
 */

import type {
  Backend,
  BackendCapabilities,
  CapabilityName,
  DType,
  DeviceBuffer,
  HostBlock,
  KernelTime,
  TuningPolicy,
  TypedArray,
} from '../../backend';
import { RoutedKernels, runKernel, type KernelArgs, type KernelName } from '../kernel-table';
import commonSource from '../../../../kernels/common.wgsl?raw';
import { BufferPool, type PoolStats } from './buffer-pool';
import { CommandQueue } from './command-queue';
import { KernelContext } from './context';
import { unwrap, WebGPUBuffer } from './gpu-buffer';
import {
  createTuneCache,
  indexedDbStore,
  memoryStore,
  type TuneCache,
  type TuneStore,
} from './autotune';
import { PipelineCache } from './pipeline-cache';
import { FUSED_MAX_INPUTS, FUSED_MAX_SCALARS } from './param-layouts';
import { KernelProfiler, summarizeTimings } from './profiler';
import { webgpuKernels } from './kernels';
import { hostBlockOf, spillBuffers } from './spill';
import type { KernelOverrides } from './variants';

export type { KernelOverrides, MatmulVariant, RowMode } from './variants';

// Usage flags are read when a backend is created: in Node the GPUBufferUsage global only exists
// once the `webgpu` package has installed its globals.
const storageUsage = () =>
  GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const stagingUsage = () => GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST;

/** Limits worth raising to the adapter's maximum (WebGPU devices start at conservative defaults). */
const RAISED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupsPerDimension',
  'maxStorageBuffersPerShaderStage',
] as const;

export class WebGPUBackend extends RoutedKernels implements Backend {
  readonly kind = 'webgpu' as const;
  /** Resolves when the device is lost (driver reset, `destroy()`); the backend is then unusable. */
  readonly lost: Promise<GPUDeviceLostInfo>;
  readonly limits: GPUSupportedLimits;
  /** Kernel variants to force instead of the selection rules. */
  readonly overrides: KernelOverrides;
  private readonly ctx: KernelContext;
  private readonly pool: BufferPool;
  private readonly staging: BufferPool;
  private deviceError: Error | null = null;
  private readonly capabilities: Partial<BackendCapabilities>;

  constructor(
    readonly device: GPUDevice,
    readonly info: GPUAdapterInfo,
    tuner: TuneCache = createTuneCache(memoryStore(), device.features.has('subgroups')),
  ) {
    super();
    this.lost = device.lost;
    this.limits = device.limits;
    this.pool = new BufferPool(device, storageUsage(), 'tensor');
    this.staging = new BufferPool(device, stagingUsage(), 'readback');
    const pipelines = new PipelineCache(device, commonSource);
    this.ctx = new KernelContext(device, pipelines, new CommandQueue(device), this.pool, tuner);
    this.overrides = this.ctx.overrides;
    this.capabilities = {
      spilling: this,
      poolStats: this,
      tuning: this,
      dispatchCount: { dispatches: () => this.ctx.queue.dispatches },
      inputGradAsConvolution: true,
      // A chain binds its inputs and outputs as storage buffers, so the adapter's limit bounds it.
      fusionLimits: {
        maxBuffers: Math.min(device.limits.maxStorageBuffersPerShaderStage, 16),
        maxInputs: FUSED_MAX_INPUTS,
        maxScalars: FUSED_MAX_SCALARS,
        maxSteps: 32,
        products: true,
      },
      loss: {
        lost: device.lost.then((info) => ({ reason: info.reason, message: info.message })),
        destroy: () => device.destroy(),
      },
      // Timing needs timestamp queries, which not every adapter offers.
      ...(KernelProfiler.supported(device) ? { profiling: this } : {}),
    };
    device.addEventListener('uncapturederror', (event) => {
      this.deviceError ??= new Error(`WebGPU error: ${event.error.message}`);
    });
  }

  /** The pieces kernel families and tests build on. */
  get context(): KernelContext {
    return this.ctx;
  }

  protected route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    runKernel(webgpuKernels, this.ctx, name, args);
  }

  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    return this.capabilities[name] ?? null;
  }

  poolStats(): PoolStats {
    return this.pool.stats();
  }

  /**
   * Starts timing every dispatch (timestamp queries; throws where the adapter has none). The
   * returned function stops and resolves to total GPU milliseconds per kernel, largest first.
   */
  profileDispatches(): () => Promise<KernelTime[]> {
    if (!KernelProfiler.supported(this.device))
      throw new Error('profileDispatches: no timestamp queries');
    this.ctx.queue.flush();
    const profiler = new KernelProfiler(this.device);
    this.ctx.queue.profiler = profiler;
    return async () => {
      this.ctx.queue.flush();
      if (this.ctx.queue.profiler === profiler) this.ctx.queue.profiler = null;
      await this.ctx.queue.settled();
      return summarizeTimings(await profiler.collect());
    };
  }

  allocate(bytes: number): DeviceBuffer {
    return new WebGPUBuffer(bytes, this.pool.acquire(Math.max(4, bytes)));
  }

  release(buffer: DeviceBuffer): void {
    const owned = unwrap(buffer);
    owned.released = true;
    this.pool.recycle(owned.gpu);
  }

  spill(buffers: readonly DeviceBuffer[]): HostBlock[] {
    return spillBuffers(
      {
        device: this.device,
        queue: this.ctx.queue,
        staging: this.staging,
        release: (buffer) => this.release(buffer),
      },
      buffers,
    );
  }

  restore(block: HostBlock): DeviceBuffer {
    const host = hostBlockOf(block);
    const buffer = this.allocate(host.bytes);
    if (host.data !== null) this.write(buffer, new Float32Array(host.data));
    else
      this.writeAsync(
        buffer,
        host.arrived.then((data) => new Float32Array(data)),
      );
    host.data = null;
    host.restored = true;
    return buffer;
  }

  discard(block: HostBlock): void {
    const host = hostBlockOf(block);
    host.data = null;
    host.discarded = true;
  }

  /**
   * WebGPU reports no memory size; the largest buffer a kernel may bind is the one figure that
   * scales with the device (raised to the adapter's maximum): a device offering that much in one
   * binding can leave that much idle. A memory limit, when set, takes its place (device.ts).
   */
  parkingBytes(): number {
    return Math.min(this.limits.maxBufferSize, this.limits.maxStorageBufferBindingSize);
  }

  write(buffer: DeviceBuffer, data: TypedArray): void {
    const owned = unwrap(buffer);
    if (data.byteLength > owned.bytes) {
      throw new Error(`write of ${data.byteLength} bytes into a ${owned.bytes}-byte buffer`);
    }
    this.ctx.queue.write(owned.gpu, data);
  }

  /** Work enqueued after this call waits (in order, on the host) until `data` has been written. */
  writeAsync(buffer: DeviceBuffer, data: Promise<TypedArray>): void {
    const owned = unwrap(buffer);
    const checked = data.then((ready) => {
      if (ready.byteLength > owned.bytes) {
        throw new Error(`write of ${ready.byteLength} bytes into a ${owned.bytes}-byte buffer`);
      }
      return ready;
    });
    this.ctx.queue.writeAfter(owned.gpu, checked);
  }

  async read(
    buffer: DeviceBuffer,
    dtype: DType,
    offset: number,
    length: number,
  ): Promise<TypedArray> {
    const owned = unwrap(buffer);
    const bytes = length * 4;
    if (offset * 4 + bytes > owned.bytes) {
      throw new Error(
        `read of elements [${offset}, ${offset + length}) past a ${owned.bytes}-byte buffer`,
      );
    }
    let data = new ArrayBuffer(0);
    if (length > 0) {
      const staging = this.staging.acquire(bytes);
      this.ctx.queue.copy(owned.gpu, offset * 4, staging, 0, bytes);
      this.ctx.queue.flush();
      // The copy may be held behind host data still on its way; map only once it is submitted.
      await this.ctx.queue.submitted();
      try {
        await staging.mapAsync(GPUMapMode.READ, 0, bytes);
      } catch (error) {
        await this.checkErrors();
        throw error;
      }
      data = staging.getMappedRange(0, bytes).slice(0);
      staging.unmap();
      this.staging.recycle(staging);
    }
    await this.checkErrors();
    return dtype === 'int32' ? new Int32Array(data) : new Float32Array(data);
  }

  setTuningPolicy(policy: TuningPolicy): void {
    this.ctx.tuner.policy = policy;
  }

  /** Resolves once running autotuning jobs (matmul variants and row modes) have chosen. */
  async tuned(): Promise<void> {
    await this.ctx.tuner.settled();
  }

  async synchronize(): Promise<void> {
    this.ctx.queue.flush();
    await this.ctx.queue.settled();
    await this.device.queue.onSubmittedWorkDone();
    await this.checkErrors();
  }

  emptyCache(): void {
    // Pooled buffers may still be named by unsubmitted commands; submit those before destroying
    // (and when submits are held behind pending host data, wait for them).
    this.ctx.queue.flush();
    if (this.ctx.queue.gated) {
      void this.ctx.queue.idle().then(() => this.emptyCache());
      return;
    }
    this.ctx.queue.forgetBindGroups();
    this.pool.emptyCache();
    this.staging.emptyCache();
  }

  /** Throws a kernel compile failure or an uncaptured device error, once. */
  private async checkErrors(): Promise<void> {
    await this.ctx.pipelines.settle();
    const error = this.deviceError;
    if (error) {
      this.deviceError = null;
      throw error;
    }
  }
}

/** Bump when kernels change enough that stored tuning choices should be measured again. */
const KERNEL_VERSION = 2;

/**
 * Opens a device on `adapter` with its full limits and wraps it in a backend. Tuned kernel choices
 * persist in `store` (default: IndexedDB where it exists, keyed by adapter; memory otherwise).
 */
export async function createWebGPUBackend(
  adapter: GPUAdapter,
  store?: TuneStore,
): Promise<WebGPUBackend> {
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) {
    const value = adapter.limits[name];
    if (typeof value === 'number') requiredLimits[name] = value;
  }
  // Timestamps let the profiler and a future autotuner time kernels where the adapter allows.
  // Subgroups let matmul share loads across quads (see kernels/matmul-blocked.wgsl).
  const requiredFeatures = (['timestamp-query', 'subgroups'] as GPUFeatureName[]).filter((f) =>
    adapter.features.has(f),
  );
  const device = await adapter.requestDevice({
    requiredLimits,
    requiredFeatures,
    label: 'gpubook',
  });
  const info = adapter.info;
  const adapterKey = `${info.vendor}|${info.architecture}|${info.device}|${info.description}|v${KERNEL_VERSION}`;
  const tuner = createTuneCache(
    store ?? indexedDbStore(adapterKey) ?? memoryStore(),
    device.features.has('subgroups'),
  );
  await tuner.preload();
  return new WebGPUBackend(device, info, tuner);
}
