/**
 * Records many dispatches into one command encoder and submits them together, when a read or
 * synchronize needs the results or after a fixed number of dispatches; parameters of the whole
 * batch go to the GPU in a single `writeBuffer` just before the submit. Host data that is still
 * on its way (`writeAfter`) holds back later queue operations until it arrives, in order.
 */

import { PARAM_SLOT_BYTES, type CompiledKernel } from './pipeline-cache';
import { ParamBlock } from './uniforms';

/**
 * Times dispatches with timestamp queries while a profile runs (outside the backend: the
 * kernel's `profile()`): a profiled dispatch gets a compute pass of its own whose start and end
 * are written to the profiler's query set, resolved when its batch is submitted.
 */
export interface DispatchProfiler {
  /** The timestamp writes of the next dispatch's pass, or null to leave it untimed. */
  timestampWrites(label: string): GPUComputePassTimestampWrites | null;
  /** Called just before a batch's encoder is finished: resolve this batch's queries. */
  resolve(encoder: GPUCommandEncoder): void;
}

const SLOT_WORDS = PARAM_SLOT_BYTES / 4;
const MAX_CACHED_BIND_GROUPS = 4096;

export type WorkgroupCount = readonly [number, number, number];

/** A queue operation held back until pending host data has been written. */
type HeldOperation =
  | {
      readonly kind: 'submit';
      readonly commands: GPUCommandBuffer;
      readonly params: Uint32Array<ArrayBuffer>;
    }
  | { readonly kind: 'write'; readonly buffer: GPUBuffer; readonly data: Uint32Array<ArrayBuffer> }
  | { readonly kind: 'later'; readonly buffer: GPUBuffer; readonly data: Promise<ArrayBufferView> }
  | { readonly kind: 'marker'; readonly reached: () => void };

/** The 32-bit words of host data (every dtype we hold is 4 bytes wide). */
function asWords(data: ArrayBufferView): Uint32Array<ArrayBuffer> {
  return new Uint32Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength / 4);
}

export class CommandQueue {
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private slots = 0;
  private readonly staging: Uint32Array<ArrayBuffer>;
  /**
   * One uniform buffer reused by every batch: a `writeBuffer` issued after a submit is ordered
   * after it on the queue, so the previous batch still reads its own parameters.
   */
  private readonly uniform: GPUBuffer;
  /** GPU buffers used by the unsubmitted batch: a host write to one of them must flush first. */
  private readonly touched = new Set<GPUBuffer>();
  private readonly block = new ParamBlock();
  /** Queue operations waiting, in order, behind host data that is not ready yet. */
  private held: HeldOperation[] = [];
  /** The loop performing `held`; null when nothing waits. */
  private draining: Promise<void> | null = null;
  private heldError: Error | null = null;
  /**
   * Bind groups by layout signature and buffer ids. Creating one is the largest per-dispatch cost
   * (~20 us in Dawn for Node), and pooled buffers make the same combinations recur every step.
   */
  private readonly bindGroups = new Map<string, GPUBindGroup>();
  private readonly bufferIds = new WeakMap<GPUBuffer, number>();
  private nextBufferId = 0;
  /** Number of submits so far (for tests and diagnostics). */
  submits = 0;
  /** Number of dispatches recorded so far (the `dispatchCount` capability). */
  dispatches = 0;
  /** Set while a profile runs; null otherwise (no cost then). */
  profiler: DispatchProfiler | null = null;

  constructor(
    private readonly device: GPUDevice,
    readonly maxDispatchesPerSubmit = 64,
  ) {
    this.staging = new Uint32Array(maxDispatchesPerSubmit * SLOT_WORDS);
    this.uniform = device.createBuffer({
      size: maxDispatchesPerSubmit * PARAM_SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: 'kernel parameters',
    });
  }

  /** The zeroed parameter block of the next dispatch; fill it, then call `dispatch`. */
  params(): ParamBlock {
    if (this.slots >= this.maxDispatchesPerSubmit) this.flush();
    const base = this.slots * SLOT_WORDS;
    this.staging.fill(0, base, base + SLOT_WORDS);
    this.block.words = this.staging;
    this.block.base = base;
    return this.block;
  }

  /** Records one dispatch using the parameter block last returned by `params()`. */
  dispatch(kernel: CompiledKernel, buffers: readonly GPUBuffer[], groups: WorkgroupCount): void {
    if (kernel.error) throw kernel.error;
    this.dispatches++;
    for (const buffer of buffers) this.touched.add(buffer);
    const bindGroup = this.bindGroup(kernel, buffers);
    const timestampWrites = this.profiler?.timestampWrites(kernel.label) ?? null;
    if (timestampWrites) {
      this.endPass();
      this.pass = this.ensureEncoder().beginComputePass({ timestampWrites });
    }
    const pass = this.ensurePass();
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, bindGroup, [this.slots * PARAM_SLOT_BYTES]);
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    if (timestampWrites) this.endPass();
    this.slots++;
  }

  /** Forgets cached bind groups (they keep buffers alive; call before destroying buffers). */
  forgetBindGroups(): void {
    this.bindGroups.clear();
  }

  private bindGroup(kernel: CompiledKernel, buffers: readonly GPUBuffer[]): GPUBindGroup {
    let key = kernel.signature;
    for (const buffer of buffers) {
      let id = this.bufferIds.get(buffer);
      if (id === undefined) {
        id = this.nextBufferId++;
        this.bufferIds.set(buffer, id);
      }
      key += `,${id}`;
    }
    let bindGroup = this.bindGroups.get(key);
    if (!bindGroup) {
      const entries: GPUBindGroupEntry[] = [
        { binding: 0, resource: { buffer: this.uniform, size: PARAM_SLOT_BYTES } },
      ];
      buffers.forEach((buffer, i) => entries.push({ binding: i + 1, resource: { buffer } }));
      bindGroup = this.device.createBindGroup({ layout: kernel.layout, entries });
      // A crude bound: a long session with many shapes would otherwise grow the map forever.
      if (this.bindGroups.size >= MAX_CACHED_BIND_GROUPS) this.bindGroups.clear();
      this.bindGroups.set(key, bindGroup);
    }
    return bindGroup;
  }

  /** Records a buffer-to-buffer copy (byte offsets and size are multiples of 4). */
  copy(
    source: GPUBuffer,
    sourceOffset: number,
    target: GPUBuffer,
    targetOffset: number,
    size: number,
  ): void {
    const encoder = this.ensureEncoder();
    this.endPass();
    encoder.copyBufferToBuffer(source, sourceOffset, target, targetOffset, size);
    this.touched.add(source);
    this.touched.add(target);
  }

  /** Whether unsubmitted commands use this buffer. */
  uses(buffer: GPUBuffer): boolean {
    return this.touched.has(buffer);
  }

  /** Submits everything recorded so far (or queues it behind pending host data). */
  flush(): void {
    if (!this.encoder) return;
    this.endPass();
    this.profiler?.resolve(this.encoder);
    const params = this.staging.subarray(0, this.slots * SLOT_WORDS);
    const commands = this.encoder.finish();
    this.encoder = null;
    this.slots = 0;
    this.touched.clear();
    if (this.draining) this.held.push({ kind: 'submit', commands, params: params.slice() });
    else this.submit(commands, params);
  }

  /** Writes host data at byte 0 of a buffer, ordered after every command recorded before. */
  write(buffer: GPUBuffer, data: ArrayBufferView): void {
    // writeBuffer is ordered against submits, not against unsubmitted commands: if those use the
    // buffer, submit them first so they see the old contents.
    if (this.uses(buffer)) this.flush();
    const words = asWords(data);
    if (this.draining) this.held.push({ kind: 'write', buffer, data: words.slice() });
    else this.device.queue.writeBuffer(buffer, 0, words);
  }

  /**
   * Writes host data that is not ready yet: everything recorded after this call runs after it.
   * Commands recorded before are submitted now (or stay ahead of it in the held line).
   */
  writeAfter(buffer: GPUBuffer, data: Promise<ArrayBufferView>): void {
    this.flush();
    this.held.push({ kind: 'later', buffer, data });
    this.draining ??= this.drain();
  }

  /**
   * Resolves once everything recorded so far is submitted (throws if pending host data failed to
   * arrive). Unlike `settled` it does not wait for host data queued after the call: a read waiting
   * for a transfer gated behind it could deadlock two devices that each read from the other.
   */
  async submitted(): Promise<void> {
    if (this.draining) {
      await new Promise<void>((reached) => this.held.push({ kind: 'marker', reached }));
    }
    const error = this.heldError;
    this.heldError = null;
    if (error) throw error;
  }

  /** Resolves once nothing is held (without reporting a failed pending write). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Resolves once nothing is held; throws if pending host data failed to arrive. */
  async settled(): Promise<void> {
    await this.idle();
    const error = this.heldError;
    this.heldError = null;
    if (error) throw error;
  }

  /** Whether queue operations are being held behind pending host data. */
  get gated(): boolean {
    return this.draining !== null;
  }

  /** Performs held operations in order, waiting for each pending host write as it comes up. */
  private async drain(): Promise<void> {
    for (let operation = this.held.shift(); operation; operation = this.held.shift()) {
      if (operation.kind === 'submit') {
        this.submit(operation.commands, operation.params);
      } else if (operation.kind === 'write') {
        this.device.queue.writeBuffer(operation.buffer, 0, operation.data);
      } else if (operation.kind === 'marker') {
        operation.reached();
      } else {
        try {
          const ready = await operation.data;
          this.device.queue.writeBuffer(operation.buffer, 0, asWords(ready));
        } catch (error) {
          this.heldError ??= error instanceof Error ? error : new Error(String(error));
        }
      }
    }
    this.draining = null;
  }

  private submit(commands: GPUCommandBuffer, params: Uint32Array<ArrayBuffer>): void {
    if (params.length > 0) this.device.queue.writeBuffer(this.uniform, 0, params);
    this.device.queue.submit([commands]);
    this.submits++;
  }

  private ensureEncoder(): GPUCommandEncoder {
    this.encoder ??= this.device.createCommandEncoder();
    return this.encoder;
  }

  private ensurePass(): GPUComputePassEncoder {
    this.pass ??= this.ensureEncoder().beginComputePass();
    return this.pass;
  }

  private endPass(): void {
    this.pass?.end();
    this.pass = null;
  }
}
