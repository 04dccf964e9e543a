/**
 * Binds kernels/reduce.wgsl: sum/max/min/argmax/argmin over the last dimensions, in one pass, or
 * two when there are too few rows to keep the device busy (rows split into chunks, then the
 * partial results reduced).
 */

import type { OutView, ReduceOp, View } from '../../backend';
import reduceSource from '../../../../kernels/reduce.wgsl?raw';
import { grid, grid64, type AdapterProfile, type KernelContext } from './context';
import { fill } from './elementwise';
import { gpuOf, outputOf } from './gpu-buffer';
import { checkRank, coalesce, elementCount } from './uniforms';
import type { RowMode } from './variants';
import { wgslType, type WgslScalar } from './wgsl-types';

export interface ReducePlan {
  readonly mode: RowMode;
  /** Elements of a row each task reduces; chunks = ceil(inner / chunkLen). */
  readonly chunkLen: number;
}

/**
 * Chooses the reduction layout: on GPUs a workgroup per task for long contiguous rows, an
 * invocation per task otherwise (neighbouring invocations then read neighbouring columns of a
 * strided reduction); on CPU emulations always an invocation per task (a workgroup there costs
 * ~40 us of barriers: 10,000 rows of 100 took 430 ms as workgroups, 5 ms as invocations). Rows
 * are split into chunks so that even one row spreads over the device.
 */
export function planReduce(
  profile: AdapterProfile,
  rows: number,
  inner: number,
  contiguous: boolean,
  force?: RowMode,
): ReducePlan {
  const rule: RowMode = !profile.cpuEmulated && contiguous && inner > 128 ? 'workgroup' : 'thread';
  const mode = force ?? rule;
  const targetTasks = mode === 'workgroup' ? 128 : 8192;
  const minChunk = mode === 'workgroup' ? 2048 : 256;
  const chunks = Math.max(1, Math.min(Math.ceil(targetTasks / rows), Math.ceil(inner / minChunk)));
  return { mode, chunkLen: Math.ceil(inner / chunks) };
}

/** Strided source of one reduction pass: offset plus kept/reduced dims (already merged). */
interface Source {
  readonly buffer: GPUBuffer;
  readonly indices: GPUBuffer | null;
  readonly offset: number;
  readonly keptShape: number[];
  readonly keptStrides: number[];
  readonly reducedShape: number[];
  readonly reducedStrides: number[];
}

interface Target {
  readonly values: GPUBuffer | null;
  readonly indices: GPUBuffer | null;
}

function identity(op: ReduceOp, type: WgslScalar): string {
  if (op === 'sum') return `${type}(0)`;
  const lowest = op === 'max' || op === 'argmax';
  if (type === 'i32') return lowest ? 'bitcast<i32>(0x80000000u)' : 'bitcast<i32>(0x7fffffffu)';
  return lowest ? '-infinity()' : 'infinity()';
}

/** One dispatch: `rows` rows of `inner` elements from `source`, into `target`. */
interface Pass {
  readonly op: ReduceOp;
  readonly type: WgslScalar;
  readonly source: Source;
  readonly target: Target;
  readonly rows: number;
  readonly inner: number;
  readonly plan: ReducePlan;
}

function dispatch(ctx: KernelContext, { op, type, source, target, rows, inner, plan }: Pass): void {
  const keepRank = source.keptShape.length;
  const redRank = source.reducedShape.length;
  checkRank('reduce', keepRank);
  checkRank('reduce', redRank);
  const flags = [op === 'sum' ? 'OP_SUM' : op.endsWith('max') ? 'OP_MAX' : 'OP_MIN'];
  if (target.values) flags.push('WRITE_VAL');
  if (target.indices) flags.push('WRITE_IDX');
  if (source.indices) flags.push('READ_IDX');
  if (redRank === 1) flags.push('RED1');
  if (plan.mode === 'workgroup') flags.push('WORKGROUP');
  const signature = target.values && target.indices ? 'wwr' : source.indices ? 'wrr' : 'wr';
  const key = `${op}|${type}|${flags.join(',')}|k${keepRank}|r${redRank}`;
  const kernel = ctx.kernel('reduce', key, signature, reduceSource, () => ({
    flags,
    values: { T: type, IDENTITY: identity(op, type), KEEP_RANK: keepRank, RED_RANK: redRank },
  }));
  const chunks = Math.ceil(inner / plan.chunkLen);
  ctx.queue
    .params()
    .u32(0, rows)
    .u32(1, inner)
    .u32(2, plan.chunkLen)
    .u32(3, chunks)
    .i32(4, source.offset)
    .list(5, source.keptShape)
    .list(11, source.keptStrides)
    .list(17, source.reducedShape)
    .list(23, source.reducedStrides);
  const buffers: GPUBuffer[] = [];
  if (target.values) buffers.push(target.values);
  if (target.indices) buffers.push(target.indices);
  buffers.push(source.buffer);
  if (source.indices) buffers.push(source.indices);
  const tasks = rows * chunks;
  ctx.run(kernel, buffers, plan.mode === 'workgroup' ? grid(tasks) : grid64(tasks));
}

/** Reduces the last `reducedDims` dims of x into out (x's shape without them). */
export function reduce(
  ctx: KernelContext,
  op: ReduceOp,
  x: View,
  reducedDims: number,
  out: OutView,
  force: RowMode | undefined = ctx.overrides.reduce,
): void {
  const split = x.shape.length - reducedDims;
  const rows = elementCount(x.shape.slice(0, split));
  const inner = elementCount(x.shape.slice(split));
  if (rows === 0) return;
  const arg = op === 'argmax' || op === 'argmin';
  if (inner === 0) {
    fill(ctx, out, arg ? 0 : op === 'sum' ? 0 : op === 'max' ? -Infinity : Infinity);
    return;
  }
  const kept = coalesce(x.shape.slice(0, split), [x.strides.slice(0, split)]);
  const reduced = coalesce(x.shape.slice(split), [x.strides.slice(split)]);
  const keptScalar = kept.shape.length === 1 && kept.shape[0] === 1;
  const source: Source = {
    buffer: gpuOf(x),
    indices: null,
    offset: x.offset,
    keptShape: keptScalar ? [] : kept.shape,
    keptStrides: keptScalar ? [] : kept.strides[0],
    reducedShape: reduced.shape,
    reducedStrides: reduced.strides[0],
  };
  const contiguous = reduced.shape.length === 1 && reduced.strides[0][0] === 1;
  const plan = planReduce(ctx.profile, rows, inner, contiguous, force);
  const type = wgslType(x.dtype);
  const target = outputOf(out);
  const chunks = Math.ceil(inner / plan.chunkLen);
  const final: Target = arg ? { values: null, indices: target } : { values: target, indices: null };
  if (chunks === 1) {
    dispatch(ctx, { op, type, source, target: final, rows, inner, plan });
    return;
  }
  // Two passes: partial results per (row, chunk), then one task per row over them.
  const partialValues = ctx.pool.acquire(rows * chunks * 4);
  const partialIndices = arg ? ctx.pool.acquire(rows * chunks * 4) : null;
  const partialTarget: Target = { values: partialValues, indices: partialIndices };
  dispatch(ctx, { op, type, source, target: partialTarget, rows, inner, plan });
  const partials: Source = {
    buffer: partialValues,
    indices: partialIndices,
    offset: 0,
    keptShape: rows === 1 ? [] : [rows],
    keptStrides: rows === 1 ? [] : [chunks],
    reducedShape: [chunks],
    reducedStrides: [1],
  };
  const finalPlan: ReducePlan = {
    mode: !ctx.profile.cpuEmulated && chunks > 128 ? 'workgroup' : 'thread',
    chunkLen: chunks,
  };
  dispatch(ctx, {
    op,
    type,
    source: partials,
    target: final,
    rows,
    inner: chunks,
    plan: finalPlan,
  });
  ctx.pool.recycle(partialValues);
  if (partialIndices) ctx.pool.recycle(partialIndices);
}
