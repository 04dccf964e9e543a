/**
 * What every kernel family needs to enqueue work: compiled kernels, the command queue, scratch
 * buffers, and the tuner's choices between kernel variants (measured on this adapter, never
 * guessed from its name).
 */

import type { BufferPool } from './buffer-pool';
import type { CommandQueue, WorkgroupCount } from './command-queue';
import type { BindingSignature, CompiledKernel, PipelineCache } from './pipeline-cache';
import { createTuneCache, memoryStore, type TrialResult, type TuneCache } from './autotune';
import { matmulCandidates, type KernelOverrides, type MatmulVariant } from './variants';
import type { LayoutSpec, ParamLayout, ParamWriter } from './params';
import { expandWgsl, type TemplateInputs } from './wgsl-template';
import { TuneSlices } from './tune-slices';

/** Most workgroups along one grid axis (WebGPU's guaranteed minimum of the limit). */
const MAX_GROUPS_PER_AXIS = 65535;

/** Workgroups for `groups` groups laid out as x * y, since one axis holds at most 65535. */
export function grid(groups: number): WorkgroupCount {
  if (groups <= MAX_GROUPS_PER_AXIS) return [groups, 1, 1];
  return [MAX_GROUPS_PER_AXIS, Math.ceil(groups / MAX_GROUPS_PER_AXIS), 1];
}

/** Workgroups for one invocation per item with 64-wide workgroups (see `flatId` in common.wgsl). */
export function grid64(items: number): WorkgroupCount {
  return grid(Math.ceil(items / 64));
}

export class KernelContext {
  /** Variants forced instead of the selection rules (tests compare them). */
  readonly overrides: KernelOverrides = {};
  /**
   * Whether unseen shape classes (matmul variants, reduce and softmax row modes) start a tuning
   * run; tests of fixed variants turn it off.
   */
  autotune = true;
  /** Matmul variants the tuner times on this device. */
  readonly candidates: readonly MatmulVariant[];
  /** Every tuning run's measurements (all families), for reports (bench/RESULTS.md) and tests. */
  readonly tuneLog: { key: string; results: TrialResult<string>[] }[] = [];
  /** Times queued tuning runs in slices between user ops (the 'amortized' policy). */
  readonly slices = new TuneSlices(this);

  constructor(
    readonly device: GPUDevice,
    readonly pipelines: PipelineCache,
    readonly queue: CommandQueue,
    readonly pool: BufferPool,
    /** Tuned choices per shape class, every family (the backend preloads stored ones). */
    readonly tuner: TuneCache = createTuneCache(memoryStore(), device.features.has('subgroups')),
  ) {
    this.candidates = matmulCandidates(device.features.has('subgroups'));
  }

  /** A kernel compiled from a `.wgsl` template; `key` must identify the inputs uniquely. */
  kernel(
    name: string,
    key: string,
    signature: BindingSignature,
    source: string,
    inputs: () => TemplateInputs,
  ): CompiledKernel {
    return this.pipelines.get(name, key, signature, () => expandWgsl(name, source, inputs()));
  }

  /** The next dispatch's parameter block, written by the names of the family's layout. */
  params<L extends LayoutSpec>(layout: ParamLayout<L>): ParamWriter<L> {
    return layout.writer(this.queue.params());
  }

  /**
   * Dispatches `kernel` with `buffers` in binding order (outputs first, as its signature says)
   * and the parameters written since `params()`. An input that is also an output (an
   * in-place update) would be a storage-usage conflict in WebGPU, so it is read from a copy.
   */
  run(kernel: CompiledKernel, buffers: readonly GPUBuffer[], groups: WorkgroupCount): void {
    const outputs = kernel.signature.lastIndexOf('w') + 1;
    let bound = buffers;
    let temps: GPUBuffer[] | null = null;
    for (let i = outputs; i < buffers.length; i++) {
      const buffer = buffers[i];
      if (!buffers.slice(0, outputs).includes(buffer)) continue;
      if (!temps) {
        temps = [];
        bound = [...buffers];
      }
      const copy = this.pool.acquire(buffer.size);
      this.queue.copy(buffer, 0, copy, 0, buffer.size);
      temps.push(copy);
      bound = bound.map((b, j) => (j >= outputs && b === buffer ? copy : b));
    }
    for (let i = 0; i < outputs; i++) {
      if (buffers.indexOf(buffers[i]) !== i) {
        throw new Error(`${kernel.label}: two outputs share one buffer`);
      }
    }
    this.queue.dispatch(kernel, bound, groups);
    // Recycling right away is safe: later users are encoded after this dispatch.
    if (temps) for (const temp of temps) this.pool.recycle(temp);
  }
}
