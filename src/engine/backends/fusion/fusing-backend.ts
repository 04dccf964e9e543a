/**
 * Element-wise fusion at the dispatch layer: a wrapper around a device's backend that records
 * fill, assign, unary, binary and scalar kernel calls instead of running them, and runs each chain as one
 * `fusedElementwise` kernel of the backend it wraps (one WGSL dispatch, or one CPU loop). A sum,
 * max or min of a step's values in the chain's own order ends the chain, and the chain then runs
 * as one `fusedReduce` kernel (the reduction's pass over partial results aside).
 *
 * Ops do not change: they allocate their outputs as before (so device accounting sees every
 * byte) and call the same kernels. A chain runs before anything that could observe or disturb
 * it: any other kernel, a read, a write, a spill or any capability, a synchronize, a call that
 * cannot join it (another shape, a buffer both read and written, the backend's binding limits),
 * and the flag turning off. Buffers a pending step reads or writes are released only after the
 * chain runs, so no memory a pending step needs is reused meanwhile; an output released before
 * that is simply not written (its values live only in registers of the fused kernel).
 */
import type {
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

/** Limits every backend can meet (8 storage buffers per stage is WebGPU's guaranteed minimum). */
export const DEFAULT_LIMITS: ChainLimits = {
  maxBuffers: 8,
  maxInputs: 6,
  maxScalars: 8,
  maxSteps: 32,
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

function runCall(target: Backend, call: ElementwiseCall): void {
  if (call.kind === 'fill') target.fill(call.out, call.value);
  else if (call.kind === 'assign') target.assign(call.x, call.out);
  else if (call.kind === 'unary') target.unary(call.op, call.x, call.out);
  else if (call.kind === 'binary') target.binary(call.op, call.a, call.b, call.out);
  else target.binaryScalar(call.op, call.a, call.scalar, call.scalarFirst, call.out);
}

export class FusingBackend extends RoutedKernels implements Backend, Flushable {
  private chain: Chain | null = null;
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

  /** Runs the recorded chain now (one fused kernel; a single step as its own kernel). */
  flush(): void {
    const chain = this.chain;
    if (chain === null) return;
    this.chain = null;
    markHolding(this, false);
    const held = this.held;
    this.held = [];
    const target = this.target();
    try {
      const { program, outputs } = chain.program();
      if (chain.reduction) {
        target.fusedReduce(program, chain.inputs, chain.scalars, outputs, chain.reduction);
      } else if (chain.steps.length === 1) {
        if (outputs.length === 1) runCall(target, chain.calls[0]);
      } else if (outputs.length > 0) {
        target.fusedElementwise(program, chain.inputs, chain.scalars, outputs);
      }
    } finally {
      for (const buffer of held) target.release(buffer);
    }
  }

  /** Drops the chain unrun (its device was lost: nothing can run there any more). */
  forget(): void {
    this.chain = null;
    this.held = [];
    markHolding(this, false);
  }

  protected route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    if (name === 'reduce' && this.chain) {
      const [op, x, reducedDims, out] = args as KernelArgs<'reduce'>;
      if (this.chain.tryReduce(op, x, reducedDims, out)) return;
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
    if (this.chain?.uses(buffer)) {
      this.chain.drop(buffer);
      this.held.push(buffer);
      return;
    }
    this.target().release(buffer);
  }

  write(buffer: DeviceBuffer, data: TypedArray): void {
    this.flush();
    this.target().write(buffer, data);
  }

  writeAsync(buffer: DeviceBuffer, data: Promise<TypedArray>): void {
    this.flush();
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
