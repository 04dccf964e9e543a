/**
 * One chain of element-wise kernel calls being recorded: the steps, the input views they read
 * from outside the chain, their scalars, which outputs are still wanted, and the reductions of
 * its steps. `tryAdd` says no (and changes nothing) when a call cannot join, so the recorder runs
 * the chain and starts anew.
 */
import {
  MAX_FUSED_REDUCTIONS,
  type BinaryOp,
  type DeviceBuffer,
  type FusedOperand,
  type FusedProgram,
  type FusedReduction,
  type FusedStep,
  type OutView,
  type ReduceOp,
  type UnaryOp,
  type View,
} from '../../backend';
import { contiguousStrides, numel } from '../../shape';

/** What the target backend can bind in one kernel. */
export interface ChainLimits {
  /** Input and output buffers together (WebGPU: storage buffers per shader stage). */
  readonly maxBuffers: number;
  readonly maxInputs: number;
  readonly maxScalars: number;
  readonly maxSteps: number;
  /** Whether matrix products join chains as steps and sums (products.ts). */
  readonly products: boolean;
}

/** An element-wise kernel call as the recorder receives it (a fill is a step with no inputs). */
export type ElementwiseCall =
  | { readonly kind: 'fill'; readonly value: number; readonly out: OutView }
  | { readonly kind: 'assign'; readonly x: View; readonly out: View }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly x: View; readonly out: OutView }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly a: View;
      readonly b: View;
      readonly out: OutView;
    }
  | {
      readonly kind: 'binaryScalar';
      readonly op: BinaryOp;
      readonly a: View;
      readonly scalar: number;
      readonly scalarFirst: boolean;
      readonly out: OutView;
    };

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Row-major strides over `shape` at offset 0: element i of the view is element i of the buffer. */
export function isPlain(view: View, shape: readonly number[]): boolean {
  if (view.offset !== 0 || !sameShape(view.shape, shape)) return false;
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] !== 1 && view.strides[d] !== step) return false;
    step *= shape[d];
  }
  return true;
}

function sameView(a: View, b: View): boolean {
  return (
    a.buffer === b.buffer &&
    a.dtype === b.dtype &&
    a.offset === b.offset &&
    a.strides.every((s, i) => s === b.strides[i])
  );
}

/**
 * `view` (over a shape of `shape`'s element count) as a view over `shape` reading the same
 * element at each flat index, when it is contiguous or one broadcast value; else null.
 */
function alignView(view: View, shape: readonly number[]): View | null {
  if (sameShape(view.shape, shape)) return view;
  if (numel(view.shape) !== numel(shape)) return null;
  const moving = view.shape.map((s, d) => (s === 1 ? 0 : view.strides[d]));
  if (moving.every((s) => s === 0)) return { ...view, shape, strides: shape.map(() => 0) };
  if (!isPlain({ ...view, offset: 0 }, view.shape)) return null;
  return { ...view, shape, strides: contiguousStrides([...shape]) };
}

/**
 * The call over the chain's shape (a reshape between two ops: the same elements in the same
 * flat order), or null when a view it reads is neither contiguous nor one broadcast value.
 */
function alignCall(call: ElementwiseCall, shape: readonly number[]): ElementwiseCall | null {
  if (sameShape(call.out.shape, shape)) return call;
  const out = alignView(call.out, shape);
  if (out === null) return null;
  if (call.kind === 'fill') return { ...call, out };
  if (call.kind === 'binary') {
    const [a, b] = [alignView(call.a, shape), alignView(call.b, shape)];
    return a && b ? { ...call, a, b, out } : null;
  }
  const x = alignView(call.kind === 'binaryScalar' ? call.a : call.x, shape);
  if (x === null) return null;
  return call.kind === 'binaryScalar' ? { ...call, a: x, out } : { ...call, x, out };
}

/** Whether a call may be recorded at all (else it runs as it is, after the chain). */
export function fusible(call: ElementwiseCall): boolean {
  const reads =
    call.kind === 'binary'
      ? [call.a, call.b]
      : call.kind === 'unary'
        ? [call.x]
        : call.kind === 'fill'
          ? []
          : call.kind === 'assign'
            ? [call.x]
            : [call.a];
  // An op writing a buffer it reads runs unfused: the kernel then reads a copy (context.ts).
  return isPlain(call.out, call.out.shape) && !reads.some((v) => v.buffer === call.out.buffer);
}

export class Chain {
  readonly steps: FusedStep[] = [];
  readonly outs: OutView[] = [];
  /** Whether each step's output is still wanted (its buffer was not released meanwhile). */
  readonly live: boolean[] = [];
  readonly inputs: View[] = [];
  readonly scalars: number[] = [];
  /** The calls as recorded, so a one-step chain runs as the plain kernel it was. */
  readonly calls: ElementwiseCall[] = [];
  private readonly producer = new Map<DeviceBuffer, number>();
  private readonly inputBuffers = new Set<DeviceBuffer>();
  private shape: readonly number[] | null = null;
  /** Set by an assign into a buffer the chain reads: nothing may join after. */
  private closed = false;
  /** The reductions of the chain's steps whose results are still wanted. */
  reductions: FusedReduction[] = [];

  constructor(private readonly limits: ChainLimits) {}

  get empty(): boolean {
    return this.steps.length === 0;
  }

  /** The shape every step has (null before the first). */
  get stepShape(): readonly number[] | null {
    return this.shape;
  }

  /** Whether a pending step reads or writes this buffer. */
  uses(buffer: DeviceBuffer): boolean {
    return this.producer.has(buffer) || this.inputBuffers.has(buffer) || this.reduces(buffer);
  }

  /** Whether a pending reduction writes this buffer. */
  private reduces(buffer: DeviceBuffer): boolean {
    return this.reductions.some((r) => r.out.buffer === buffer);
  }

  /** The buffer was released: its step's values, or the reductions into it, are no longer wanted. */
  drop(buffer: DeviceBuffer): void {
    const step = this.producer.get(buffer);
    if (step !== undefined) this.live[step] = false;
    this.reductions = this.reductions.filter((r) => r.out.buffer !== buffer);
  }

  /** The step whose float32 values `view` reads in the chain's flat order, if any. */
  plainStep(view: View): number | null {
    const step = this.producer.get(view.buffer);
    if (step === undefined || this.steps[step].dtype !== 'float32' || view.dtype !== 'float32') {
      return null;
    }
    // The view must walk the step's buffer from its first element in order.
    const n = this.shape === null ? 0 : numel(this.shape);
    return numel(view.shape) === n && isPlain(view, view.shape) ? step : null;
  }

  /**
   * Adds `reduce(op, x, reducedDims, out)` when x is a float32 step's output read in the chain's
   * own flat order, so each row is a run of consecutive elements; else false (changing nothing).
   * Steps may join after it; several reductions share their row length and are all sums.
   */
  tryReduce(op: ReduceOp, x: View, reducedDims: number, out: OutView): boolean {
    if (op !== 'sum' && op !== 'max' && op !== 'min') return false;
    const step = this.plainStep(x);
    if (step === null || !isPlain(out, out.shape) || this.uses(out.buffer)) return false;
    return this.addReduction(op, step, numel(x.shape.slice(x.shape.length - reducedDims)), out);
  }

  /**
   * Adds a reduction of `step`'s values in rows of `inner` into `out`, which receives the rows'
   * results from its offset (the caller checked it is not in use); else false, changing nothing.
   */
  addReduction(op: FusedReduction['op'], step: number, inner: number, out: View): boolean {
    if (this.closed || this.shape === null) return false;
    const n = numel(this.shape);
    if (n === 0 || inner === 0 || n % inner !== 0 || numel(out.shape) * inner !== n) return false;
    const others = this.reductions;
    if (others.length >= MAX_FUSED_REDUCTIONS) return false;
    if (
      others.length > 0 &&
      (op !== 'sum' || others.some((r) => r.op !== 'sum' || r.inner !== inner))
    ) {
      return false;
    }
    // The reductions share one binding (their partial results, or the one output).
    const outputs = this.live.filter(Boolean).length + 1;
    if (this.inputs.length + outputs > this.limits.maxBuffers) return false;
    this.reductions.push({ op, step, shape: this.shape, inner, out });
    return true;
  }

  /** Adds the call as a step, or returns false (changing nothing) when it cannot join. */
  tryAdd(given: ElementwiseCall): boolean {
    if (this.closed) return false;
    const call = this.shape === null ? given : alignCall(given, this.shape);
    if (call === null) return false;
    const { out } = call;
    // Writing a buffer the chain reads or writes would reorder memory effects, except an assign
    // (an optimizer's p.copy_(p - lr·g)) into a buffer every step reads at the element it writes:
    // each element is then read before it is written, as unfused. Later steps would need the new
    // values (WebGPU binds such an input as a copy taken before the kernel), so the chain closes.
    const inPlace = call.kind === 'assign' && this.inPlaceTarget(out);
    if (this.uses(out.buffer) && !inPlace) return false;
    if (this.steps.length >= this.limits.maxSteps) return false;
    const newInputs: View[] = [];
    const operand = (view: View): FusedOperand | null => {
      // A pending reduction's result does not exist until the chain has run.
      if (this.reduces(view.buffer)) return null;
      const step = this.producer.get(view.buffer);
      if (step !== undefined) {
        const plain = isPlain(view, out.shape) && view.dtype === this.steps[step].dtype;
        return plain ? { from: 'step', index: step } : null;
      }
      const known = [...this.inputs, ...newInputs].findIndex((v) => sameView(v, view));
      if (known >= 0) return { from: 'input', index: known };
      newInputs.push(view);
      return { from: 'input', index: this.inputs.length + newInputs.length - 1 };
    };
    let step: FusedStep;
    let scalar: number | null = null;
    if (call.kind === 'assign') {
      const a = operand(call.x);
      if (!a) return false;
      step = { kind: 'unary', op: 'copy', a, dtype: out.dtype };
    } else if (call.kind === 'fill') {
      // A copy of a scalar operand: the backends give it fill's cast (backend.ts, FusedStep).
      const a: FusedOperand = { from: 'scalar', index: this.scalars.length };
      step = { kind: 'unary', op: 'copy', a, dtype: out.dtype };
      scalar = call.value;
    } else if (call.kind === 'unary') {
      const a = operand(call.x);
      if (!a) return false;
      step = { kind: 'unary', op: call.op, a, dtype: out.dtype };
    } else if (call.kind === 'binary') {
      const a = operand(call.a);
      const b = operand(call.b);
      if (!a || !b) return false;
      step = { kind: 'binary', op: call.op, a, b, dtype: out.dtype };
    } else {
      const t = operand(call.a);
      if (!t) return false;
      const s: FusedOperand = { from: 'scalar', index: this.scalars.length };
      const [a, b] = call.scalarFirst ? [s, t] : [t, s];
      step = { kind: 'binary', op: call.op, a, b, dtype: out.dtype };
      scalar = call.scalar;
    }
    const inputs = this.inputs.length + newInputs.length;
    const outputs = this.live.filter(Boolean).length + 1 + (this.reductions.length > 0 ? 1 : 0);
    if (
      inputs > this.limits.maxInputs ||
      inputs + outputs > this.limits.maxBuffers ||
      this.scalars.length + (scalar === null ? 0 : 1) > this.limits.maxScalars
    ) {
      return false;
    }
    this.shape = out.shape;
    if (inPlace) this.closed = true;
    for (const v of newInputs) {
      this.inputs.push(v);
      this.inputBuffers.add(v.buffer);
    }
    if (scalar !== null) this.scalars.push(scalar);
    this.producer.set(out.buffer, this.steps.length);
    this.steps.push(step);
    this.outs.push(out);
    this.live.push(true);
    this.calls.push(call);
    return true;
  }

  /**
   * Runs `record` (which adds steps and reductions) as one: when it returns false, the chain is
   * put back as it was before, so a call that becomes several steps joins whole or not at all.
   */
  atomically(record: () => boolean): boolean {
    const lengths = [this.steps, this.outs, this.live, this.inputs, this.scalars, this.calls].map(
      (list) => list.length,
    );
    const before = {
      producer: new Map(this.producer),
      inputBuffers: new Set(this.inputBuffers),
      shape: this.shape,
      closed: this.closed,
      reductions: [...this.reductions],
      live: [...this.live],
    };
    if (record()) return true;
    [this.steps, this.outs, this.live, this.inputs, this.scalars, this.calls].forEach(
      (list, k) => (list.length = lengths[k]),
    );
    before.live.forEach((live, i) => (this.live[i] = live));
    this.producer.clear();
    before.producer.forEach((step, buffer) => this.producer.set(buffer, step));
    this.inputBuffers.clear();
    before.inputBuffers.forEach((buffer) => this.inputBuffers.add(buffer));
    this.shape = before.shape;
    this.closed = before.closed;
    this.reductions = before.reductions;
    return false;
  }

  /** Whether `out` is a buffer the chain reads only through views indexed as `out` itself. */
  private inPlaceTarget(out: View): boolean {
    if (this.producer.has(out.buffer) || !this.inputBuffers.has(out.buffer)) return false;
    return this.inputs.every((v) => v.buffer !== out.buffer || sameView(v, out));
  }

  /** The program writing only the outputs still wanted, and their views. */
  program(): { program: FusedProgram; outputs: OutView[] } {
    const written = this.steps.map((_, i) => i).filter((i) => this.live[i]);
    return {
      program: { inputs: this.inputs.map((v) => v.dtype), steps: this.steps, outputs: written },
      outputs: written.map((i) => this.outs[i]),
    };
  }
}
