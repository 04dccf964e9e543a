/**
 * A fused element-wise chain on the CPU (backends/fusion/), bit for bit the unfused path's
 * results. Where code can be compiled (the kernel worker), the chain runs as one generated loop
 * (fused-loop.ts). Elsewhere it makes one pass over the output in blocks small enough to stay in
 * cache, each step running the same loop its unfused kernel runs (elementwise.ts) on the block;
 * steps nobody reads back live only in per-block scratch arrays, and each reduction folds each
 * block of its step as the unfused reduce kernel folds that step's output (reduce.ts: in order,
 * in float64).
 */
import type { FusedOperand, FusedProgram, FusedReduction, OutView, View } from '../../backend';
import { contiguousStrides, numel } from '../../shape';
import { arrayOf, CpuBuffer } from './buffer';
import { binaryKernel, binaryScalarKernel, fillKernel, unaryKernel } from './elementwise';
import { fusedLoop, type FusedLoop } from './fused-loop';
import { coalesce } from './strided';

/** Elements per block: every step's scratch (4 bytes each) stays in L1/L2. */
const BLOCK = 2048;

/** A 1-D view of elements [start, start + length) of a view whose elements form one strided run. */
function slice(base: View, start: number, length: number, stride: number): View {
  return { ...base, offset: base.offset + start * stride, shape: [length], strides: [stride] };
}

/** The stride of a view's elements in flat order, or null when they do not form one run. */
function runStride(view: View): number | null {
  const walk = coalesce(view.shape, [view.strides]);
  return walk.shape.length === 1 ? walk.strides[0][0] : null;
}

export function fusedElementwiseKernel(
  program: FusedProgram,
  inputs: readonly View[],
  scalars: readonly number[],
  outputs: readonly OutView[],
): void {
  if (outputs.length === 0) return;
  const shape = outputs[0].shape;
  const runs = inputRuns(inputs, shape);
  const loop = fusedLoop(program, []);
  if (loop) runLoop(loop, runs, scalars, outputs, numel(shape), numel(shape), []);
  else runChain(program, runs, scalars, outputs, shape, []);
}

export function fusedReduceKernel(
  program: FusedProgram,
  inputs: readonly View[],
  scalars: readonly number[],
  outputs: readonly OutView[],
  reductions: readonly FusedReduction[],
): void {
  const shape = reductions[0].shape;
  const runs = inputRuns(inputs, shape);
  // One loop nest folds rows of one length; chains whose sums differ in it keep the blocks.
  const inner = reductions[0].inner;
  const loop = reductions.every((r) => r.inner === inner) ? fusedLoop(program, reductions) : null;
  if (loop) {
    const rows = inner === 0 ? 0 : numel(shape) / inner;
    const acc = reductions.map(() => new Float64Array(rows));
    runLoop(loop, runs, scalars, outputs, numel(shape), inner, acc);
    // Written once the chain is done, as the block path's `finish` writes them.
    reductions.forEach(({ out }, r) => arrayOf(out).set(acc[r], out.offset));
    return;
  }
  const folds = reductions.map(reductionFold);
  runChain(program, runs, scalars, outputs, shape, folds);
  folds.forEach((fold) => fold.finish());
}

interface InputRun {
  view: View;
  stride: number;
}

/** Inputs that are not one strided run (a transpose, a broadcast row) are made contiguous once. */
function inputRuns(inputs: readonly View[], shape: readonly number[]): InputRun[] {
  const n = numel(shape);
  return inputs.map((view) => {
    const stride = runStride(view);
    if (stride !== null) return { view, stride };
    const copy: View = {
      buffer: new CpuBuffer(n * 4),
      dtype: view.dtype,
      shape: [...shape],
      strides: contiguousStrides(shape),
      offset: 0,
    };
    unaryKernel('copy', view, copy);
    return { view: copy, stride: 1 };
  });
}

function runLoop(
  loop: FusedLoop,
  runs: readonly InputRun[],
  scalars: readonly number[],
  outputs: readonly OutView[],
  n: number,
  inner: number,
  acc: readonly Float64Array[],
): void {
  if (n === 0) return;
  loop(
    n,
    inner,
    runs.map((r) => arrayOf(r.view)),
    runs.map((r) => r.view.offset),
    runs.map((r) => r.stride),
    Float64Array.from(scalars),
    outputs.map((o) => arrayOf(o)),
    outputs.map((o) => o.offset),
    acc,
  );
}

/** Folds one reduction's step block by block, as the unfused reduce kernel folds a tensor. */
function reductionFold({ op, inner, out, shape, step }: FusedReduction) {
  const rows = inner === 0 ? 0 : numel(shape) / inner;
  // reduce.ts's accumulators: a float64 sum, or the best of sign·value with NaN sticking.
  const sign = op === 'min' ? -1 : 1;
  const acc = new Float64Array(rows).fill(op === 'sum' ? 0 : -Infinity);
  // A block may span several rows: each row's run within it is folded in a local, in order, so
  // the float64 sums are the unfused kernel's, without an array store and a row check per element.
  const visit = (block: View, start: number) => {
    const x = arrayOf(block);
    const end = block.offset + block.shape[0];
    let row = Math.floor(start / inner);
    let runEnd = block.offset + inner - (start - row * inner);
    for (let i = block.offset; i < end; row++, runEnd += inner) {
      const stop = Math.min(end, runEnd);
      let value = acc[row];
      if (op === 'sum') {
        for (; i < stop; i++) value += x[i];
      } else {
        for (; i < stop; i++) {
          const v = sign * x[i];
          if (v > value || v !== v) value = v;
        }
      }
      acc[row] = value;
    }
  };
  const finish = () => {
    const o = arrayOf(out);
    for (let r = 0; r < rows; r++) o[out.offset + r] = op === 'sum' ? acc[r] : sign * acc[r];
  };
  return { step, visit, finish };
}

/** Runs the chain over `shape` block by block; each of `reduced` sees each block of its step. */
function runChain(
  program: FusedProgram,
  runs: readonly InputRun[],
  scalars: readonly number[],
  outputs: readonly OutView[],
  shape: readonly number[],
  reduced: readonly { step: number; visit: (block: View, start: number) => void }[],
): void {
  const n = numel(shape);
  if (n === 0) return;
  const outputOf = new Map(program.outputs.map((step, k) => [step, outputs[k]]));
  const scratch = program.steps.map((step, i) =>
    outputOf.has(i)
      ? null
      : { buffer: new CpuBuffer(Math.min(n, BLOCK) * 4), dtype: step.dtype, offset: 0 },
  );
  for (let start = 0; start < n; start += BLOCK) {
    const length = Math.min(BLOCK, n - start);
    const block = (i: number): View => {
      const out = outputOf.get(i);
      if (out) return slice(out, start, length, 1);
      const s = scratch[i] as { buffer: CpuBuffer; dtype: View['dtype']; offset: number };
      return { ...s, shape: [length], strides: [1] };
    };
    const read = (operand: FusedOperand): View => {
      if (operand.from === 'step') return block(operand.index);
      if (operand.from === 'input') {
        const run = runs[operand.index];
        return slice(run.view, start, length, run.stride);
      }
      throw new Error('fusedElementwise: a scalar operand where a tensor was expected');
    };
    program.steps.forEach((step, i) => {
      const out = block(i);
      if (step.kind === 'unary' && step.a.from === 'scalar') fillKernel(out, scalars[step.a.index]);
      else if (step.kind === 'unary') unaryKernel(step.op, read(step.a), out);
      else if (step.a.from === 'scalar')
        binaryScalarKernel(step.op, read(step.b), scalars[step.a.index], true, out);
      else if (step.b.from === 'scalar')
        binaryScalarKernel(step.op, read(step.a), scalars[step.b.index], false, out);
      else binaryKernel(step.op, read(step.a), read(step.b), out);
    });
    for (const { step, visit } of reduced) visit(block(step), start);
  }
}
