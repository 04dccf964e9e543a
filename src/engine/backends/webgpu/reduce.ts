/**
 * Binds kernels/reduce.wgsl: sum/max/min/argmax/argmin over the last dimensions, in one pass, or
 * two when there are too few rows to keep the device busy (rows split into chunks, then the
 * partial results reduced); an invocation or a workgroup per task, as tuned per shape class.
 */

import type { OutView, ReduceOp, View } from '../../backend';
import reduceWgsl from '../../../../kernels/reduce.wgsl?raw';
import { grid, grid64, type KernelContext } from './context';
import { fill } from './elementwise';
import { gpuOf, outputOf } from './gpu-buffer';
import { chooseRowMode, extentOf, trialShape } from './rowmode-tune';
import { checkRank, coalesce, elementCount } from './uniforms';
import { REDUCE } from './param-layouts';
import type { RowMode } from './variants';
import { wgslType, type WgslScalar } from './wgsl-types';

const reduceSource = REDUCE.source(reduceWgsl);

export interface ReducePlan {
  readonly mode: RowMode;
  /** Elements of a row each task reduces; chunks = ceil(inner / chunkLen). */
  readonly chunkLen: number;
}

/**
 * The mode before a shape class is tuned (and for ops too small to tune): an invocation per task.
 * It is never catastrophic: on CPU emulations a workgroup costs ~40 us of barriers (10,000 rows of
 * 100 took 430 ms as workgroups, 5 ms as invocations), while on GPUs invocations are at worst a
 * few times slower on long contiguous rows, and the chunking below still spreads a long row over
 * thousands of invocations. The tuner measures which one this adapter prefers per class.
 */
export const DEFAULT_REDUCE_MODE: RowMode = 'thread';

/**
 * How a reduction of `rows` rows of `inner` elements is cut into tasks in `mode`: rows are split
 * into chunks so that even one row spreads over the device (a workgroup task takes longer chunks,
 * as its 64 invocations share one). A row of at most four minimum chunks stays whole: the pass
 * over partial results would cost a dispatch more than the few parallel tasks save (a split-K
 * weight gradient's 2 x 1000 partial products).
 */
export function planReduce(rows: number, inner: number, mode: RowMode): ReducePlan {
  const targetTasks = mode === 'workgroup' ? 128 : 8192;
  const minChunk = mode === 'workgroup' ? 2048 : 256;
  if (inner <= 4 * minChunk) return { mode, chunkLen: inner };
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

export interface Target {
  readonly values: GPUBuffer | null;
  readonly indices: GPUBuffer | null;
}

/** The accumulator's start value in WGSL (also fused.ts's). */
export function identity(op: ReduceOp, type: WgslScalar): string {
  if (op === 'sum') return `${type}(0)`;
  const lowest = op === 'max' || op === 'argmax';
  if (type === 'i32') return lowest ? 'bitcast<i32>(0x80000000u)' : 'bitcast<i32>(0x7fffffffu)';
  return lowest ? '-infinity()' : 'infinity()';
}

/**
 * The reduce.wgsl flags of an op over a WGSL type (also fused.ts's): which fold, and FLOAT for f32,
 * whose max and min let a NaN win.
 */
export function opFlags(op: ReduceOp, type: string): string[] {
  const flags = [op === 'sum' ? 'OP_SUM' : op.endsWith('max') ? 'OP_MAX' : 'OP_MIN'];
  if (type === 'f32') flags.push('FLOAT');
  return flags;
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
  const flags = opFlags(op, type);
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
  ctx
    .params(REDUCE)
    .set('rows', rows)
    .set('inner', inner)
    .set('chunkLen', plan.chunkLen)
    .set('chunks', chunks)
    .set('offset', source.offset)
    .list('keptShape', source.keptShape)
    .list('keptStrides', source.keptStrides)
    .list('reducedShape', source.reducedShape)
    .list('reducedStrides', source.reducedStrides);
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
  const reduced = coalesce(x.shape.slice(split), [x.strides.slice(split)]);
  const contiguous = reduced.shape.length === 1 && reduced.strides[0][0] === 1;
  const input = gpuOf(x);
  const mode =
    force ??
    chooseRowMode(ctx, { family: 'reduce', rows, inner, contiguous }, DEFAULT_REDUCE_MODE, () => {
      const shape = trialShape(x.shape);
      return {
        input,
        ...extentOf(shape, x.strides, x.offset),
        outBytes: elementCount(shape.slice(0, split)) * 4,
        outType: arg || x.dtype === 'int32' ? 'int32' : 'float32',
        record: (trialMode, buffer, shift, scratch) => {
          const layout = { ...x, shape, offset: x.offset - shift };
          record(ctx, op, layout, buffer, split, scratch, trialMode);
        },
      };
    });
  record(ctx, op, x, input, split, outputOf(out), mode);
}

/** Records the reduction of the dims from `split` on of `x` (read from `buffer`) into `target`. */
function record(
  ctx: KernelContext,
  op: ReduceOp,
  x: Pick<View, 'dtype' | 'shape' | 'strides' | 'offset'>,
  buffer: GPUBuffer,
  split: number,
  target: GPUBuffer,
  mode: RowMode,
): void {
  const kept = coalesce(x.shape.slice(0, split), [x.strides.slice(0, split)]);
  const reduced = coalesce(x.shape.slice(split), [x.strides.slice(split)]);
  const keptScalar = kept.shape.length === 1 && kept.shape[0] === 1;
  const source: Source = {
    buffer,
    indices: null,
    offset: x.offset,
    keptShape: keptScalar ? [] : kept.shape,
    keptStrides: keptScalar ? [] : kept.strides[0],
    reducedShape: reduced.shape,
    reducedStrides: reduced.strides[0],
  };
  const rows = elementCount(x.shape.slice(0, split));
  const inner = elementCount(x.shape.slice(split));
  reducePasses(ctx, op, wgslType(x.dtype), source, rows, inner, target, mode);
}

/** Records the reduction of `rows` rows of `inner` elements in one or two passes into `target`. */
function reducePasses(
  ctx: KernelContext,
  op: ReduceOp,
  type: WgslScalar,
  source: Source,
  rows: number,
  inner: number,
  target: GPUBuffer,
  mode: RowMode,
): void {
  const arg = op === 'argmax' || op === 'argmin';
  const plan = planReduce(rows, inner, mode);
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
  reducePartials(
    ctx,
    op,
    type,
    { values: partialValues, indices: partialIndices },
    rows,
    chunks,
    final,
    mode,
  );
}

/**
 * The second pass of a reduction (also after fused.ts's fused one): `rows` rows of `chunks`
 * partial results (values, and element indices for an arg-reduction) into `final`, after which
 * the partial buffers go back to the pool. With `lanes` > 1 (several sums of one fused chain),
 * each partial result is a vector of `lanes` values and `final` receives them lane by lane:
 * `[lanes, rows]`.
 */
export function reducePartials(
  ctx: KernelContext,
  op: ReduceOp,
  type: WgslScalar,
  partial: { values: GPUBuffer; indices: GPUBuffer | null },
  rows: number,
  chunks: number,
  final: Target,
  mode: RowMode,
  lanes = 1,
): void {
  const keptShape = [...(lanes > 1 ? [lanes] : []), ...(rows > 1 ? [rows] : [])];
  const keptStrides = [...(lanes > 1 ? [1] : []), ...(rows > 1 ? [chunks * lanes] : [])];
  const partials: Source = {
    buffer: partial.values,
    indices: partial.indices,
    offset: 0,
    keptShape,
    keptStrides,
    reducedShape: [chunks],
    reducedStrides: [lanes],
  };
  // The partial rows follow the class's mode (so a tuning run times both passes of each mode),
  // except short ones, where a workgroup's barriers would cost more than its 64 lanes save.
  const finalPlan: ReducePlan = {
    mode: mode === 'workgroup' && chunks > 128 ? 'workgroup' : 'thread',
    chunkLen: chunks,
  };
  dispatch(ctx, {
    op,
    type,
    source: partials,
    target: final,
    rows: rows * lanes,
    inner: chunks,
    plan: finalPlan,
  });
  ctx.pool.recycle(partial.values);
  if (partial.indices) ctx.pool.recycle(partial.indices);
}
