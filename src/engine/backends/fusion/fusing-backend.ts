/**
 * Element-wise fusion at the dispatch layer: a wrapper around a device's backend that records
 * fill, assign, unary, binary and scalar kernel calls instead of running them, and runs each
 * chain as one `fusedElementwise` kernel of the backend it wraps (one WGSL dispatch, or one CPU
 * loop). A sum, max or min of a step's values in the chain's own order joins the chain (several
 * sums may), and the chain then runs as one `fusedReduce` kernel (the reductions' pass over
 * partial results aside). Matrix products with a tiny K, or contracting a step over the whole
 * chain, join as element-wise steps and sums (products.ts). Adam steps of several parameters in
 * a row are recorded the same way and run as one `adam` call (a multi-tensor step: one dispatch
 * for up to four parameters on WebGPU).
 *
 * Ops do not change: they allocate their outputs as before (so device accounting sees every
 * byte) and call the same kernels. A chain runs before anything that could observe or disturb
 * it: any other kernel, a read, a write into a buffer it uses, a spill or any capability, a
 * synchronize, a call that cannot join it (another shape, a buffer both read and written, the
 * backend's binding limits), and the flag turning off. Buffers a pending step reads or writes are
 * released only after the chain runs, so no memory a pending step needs is reused meanwhile; an
 * output released before that is simply not written (its values live only in registers of the
 * fused kernel).
 */
import type {
  AdamSlot,
  AdamStep,
  Backend,
  BackendCapabilities,
  CapabilityName,
  DeviceBuffer,
  DType,
  TypedArray,
} from '../../backend';
import { callKernel, RoutedKernels, type KernelArgs, type KernelName } from '../kernel-table';
import { Chain, fusible, type ChainLimits, type ElementwiseCall } from './chain';
import { markHolding, type Flushable } from './flag';
import { tryProduct } from './products';

/** Limits every backend can meet (8 storage buffers per stage is WebGPU's guaranteed minimum). */
export const DEFAULT_LIMITS: ChainLimits = {
  maxBuffers: 8,
  maxInputs: 6,
  maxScalars: 8,
  maxSteps: 32,
  products: true,
};

/** Capabilities that read nothing a pending chain would change. */
const UNOBSERVING: ReadonlySet<CapabilityName> = new Set([
  'dispatchCount',
  'fusionLimits',
  'inputGradAsConvolution',
]);

function elementwiseCall<K extends KernelName>(
  name: K,
  args: KernelArgs<K>,
): ElementwiseCall | null {
  if (name === 'assign') {
    const [x, out] = args as KernelArgs<'assign'>;
    return { kind: 'assign', x, out };
  }
  if (name === 'fill') {
    const [out, value] = args as KernelArgs<'fill'>;
    return { kind: 'fill', value, out };
  }
  if (name === 'unary') {
    const [op, x, out] = args as KernelArgs<'unary'>;
    return { kind: 'unary', op, x, out };
  }
  if (name === 'binary') {
    const [op, a, b, out] = args as KernelArgs<'binary'>;
    return { kind: 'binary', op, a, b, out };
  }
  if (name === 'binaryScalar') {
    const [op, a, scalar, scalarFirst, out] = args as KernelArgs<'binaryScalar'>;
    return { kind: 'binaryScalar', op, a, scalar, scalarFirst, out };
  }
  return null;
}

/** Runs a recorded chain as one fused kernel (a single step as its own kernel). */
function runChain(target: Backend, chain: Chain): void {
  const { program, outputs } = chain.program();
  if (chain.reductions.length > 0) {
    target.fusedReduce(program, chain.inputs, chain.scalars, outputs, chain.reductions);
  } else if (chain.steps.length === 1) {
    if (outputs.length === 1) runCall(target, chain.calls[0]);
  } else if (outputs.length > 0) {
    target.fusedElementwise(program, chain.inputs, chain.scalars, outputs);
  }
}

function runCall(target: Backend, call: ElementwiseCall): void {
  if (call.kind === 'fill') target.fill(call.out, call.value);
  else if (call.kind === 'assign') target.assign(call.x, call.out);
  else if (call.kind === 'unary') target.unary(call.op, call.x, call.out);
  else if (call.kind === 'binary') target.binary(call.op, call.a, call.b, call.out);
  else target.binaryScalar(call.op, call.a, call.scalar, call.scalarFirst, call.out);
}

/** The buffers an Adam slot reads or writes. */
const slotBuffers = (slot: AdamSlot): DeviceBuffer[] =>
  [slot.param, slot.grad, slot.m, slot.v].map((view) => view.buffer);

const sameStep = (a: AdamStep, b: AdamStep): boolean =>
  (Object.keys(a) as (keyof AdamStep)[]).every((key) => a[key] === b[key]);

export class FusingBackend extends RoutedKernels implements Backend, Flushable {
  private chain: Chain | null = null;
  /** Adam steps recorded since the last flush (never at the same time as a chain). */
  private adams: { slots: AdamSlot[]; step: AdamStep } | null = null;
  /** Buffers released while a pending step used them: given back once the chain has run. */
  private held: DeviceBuffer[] = [];
  private limits: ChainLimits | null = null;

  /** `target` is read at each use: a device may swap its backend (a lost device's refuses). */
  constructor(private readonly target: () => Backend) {
    super();
  }

  get kind(): 'cpu' | 'webgpu' {
    return this.target().kind;
  }

  /**
   * Runs what is recorded now: the chain (one fused kernel; a single step as its own kernel), or
   * the Adam steps (one call).
   */
  flush(): void {
    const { chain, adams } = this;
    if (chain === null && adams === null) return;
    this.chain = null;
    this.adams = null;
    markHolding(this, false);
    const held = this.held;
    this.held = [];
    const target = this.target();
    try {
      if (adams) target.adam(adams.slots, adams.step);
      if (chain) runChain(target, chain);
    } finally {
      for (const buffer of held) target.release(buffer);
    }
  }

  /** Drops what is recorded unrun (its device was lost: nothing can run there any more). */
  forget(): void {
    this.chain = null;
    this.adams = null;
    this.held = [];
    markHolding(this, false);
  }

  /** Whether a recorded chain or Adam step reads or writes `buffer`. */
  private uses(buffer: DeviceBuffer): boolean {
    if (this.chain?.uses(buffer)) return true;
    return this.adams?.slots.some((slot) => slotBuffers(slot).includes(buffer)) ?? false;
  }

  /** Joins Adam steps to the recorded ones when they share the step and no buffer. */
  private recordAdam(slots: readonly AdamSlot[], step: AdamStep): void {
    if (this.chain) this.flush();
    const pending = this.adams;
    if (pending) {
      const clash = slots.some((slot) => slotBuffers(slot).some((b) => this.uses(b)));
      if (clash || !sameStep(pending.step, step)) this.flush();
    }
    if (this.adams) {
      this.adams.slots.push(...slots);
      return;
    }
    this.adams = { slots: [...slots], step };
    markHolding(this, true);
  }

  protected route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    if (name === 'adam') {
      const [slots, step] = args as KernelArgs<'adam'>;
      this.recordAdam(slots, step);
      return;
    }
    if (name === 'reduce' && this.chain) {
      const [op, x, reducedDims, out] = args as KernelArgs<'reduce'>;
      if (this.chain.tryReduce(op, x, reducedDims, out)) return;
    }
    if (name === 'matmul' && this.chainLimits().products) {
      const [a, b, out] = args as KernelArgs<'matmul'>;
      if (this.chain && tryProduct(this.chain, a, b, out)) return;
      this.flush();
      const chain = new Chain(this.chainLimits());
      if (tryProduct(chain, a, b, out)) {
        this.chain = chain;
        markHolding(this, true);
      } else callKernel(this.target(), name, args);
      return;
    }
    const call = elementwiseCall(name, args);
    if (call === null || !fusible(call)) {
      this.flush();
      callKernel(this.target(), name, args);
      return;
    }
    if (this.chain?.tryAdd(call)) return;
    this.flush();
    const chain = new Chain(this.chainLimits());
    if (!chain.tryAdd(call)) {
      runCall(this.target(), call);
      return;
    }
    this.chain = chain;
    markHolding(this, true);
  }

  private chainLimits(): ChainLimits {
    this.limits ??= this.target().capability('fusionLimits') ?? DEFAULT_LIMITS;
    return this.limits;
  }

  capability<K extends CapabilityName>(name: K): BackendCapabilities[K] | null {
    // Whatever a capability does (spill, read synchronously, time dispatches) sees the chain run;
    // only the counters, limits and preferences, which observe nothing, leave it recording.
    if (!UNOBSERVING.has(name)) this.flush();
    return this.target().capability(name);
  }

  allocate(bytes: number): DeviceBuffer {
    return this.target().allocate(bytes);
  }

  release(buffer: DeviceBuffer): void {
    if (this.uses(buffer)) {
      this.chain?.drop(buffer);
      this.held.push(buffer);
      return;
    }
    this.target().release(buffer);
  }

  // A write into a buffer no pending step touches cannot change what the chain computes (a
  // buffer released meanwhile is held, so it is not handed out again): a tensor made between
  // two ops leaves the chain recording.
  write(buffer: DeviceBuffer, data: TypedArray): void {
    if (this.uses(buffer)) this.flush();
    this.target().write(buffer, data);
  }

  writeAsync(buffer: DeviceBuffer, data: Promise<TypedArray>): void {
    if (this.uses(buffer)) this.flush();
    this.target().writeAsync(buffer, data);
  }

  read(buffer: DeviceBuffer, dtype: DType, offset: number, length: number): Promise<TypedArray> {
    this.flush();
    return this.target().read(buffer, dtype, offset, length);
  }

  synchronize(): Promise<void> {
    this.flush();
    return this.target().synchronize();
  }

  emptyCache(): void {
    this.flush();
    this.target().emptyCache();
  }
}
