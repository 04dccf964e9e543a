/**
 * The Tensor's core: a strided view of reference-counted device memory, with an optional autograd
 * node, its lifetime and the kernel's view of it — everything ops need to make and read tensors,
 * and nothing that calls an op. The methods that hand over to ops (`add`, `sum`, `to`, `data`, …)
 * are added by tensor.ts, which every user of `Tensor` imports: ops import this module, tensor.ts
 * imports the ops, so the import graph has no cycle (engine-imports.test.ts).
 */
import type { Node } from './autograd';
import type { DType, View } from './backend';
import type { Device } from './devices/device';
import {
  keep as keepResources,
  newResources,
  releaseResources,
  setTensorCheck,
  touch,
  track,
  type TensorResources,
} from './memory';
import { isContiguous, numel, normalizeDim, type Shape } from './shape';
import type { Storage } from './storage';
import type { Tensor } from './tensor';

let nextHookId = 0;

/** A TensorBase as the Tensor it is at run time (tensor.ts gives the class its methods). */
function full(tensor: TensorBase): Tensor {
  return tensor as Tensor;
}

export class TensorBase {
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  readonly dtype: DType;
  /** @internal Storage, graph node and lifetime bookkeeping (see memory.ts). */
  readonly res: TensorResources;
  private leafRequiresGrad = false;
  private gradTensor: Tensor | null = null;
  /**
   * Whether code outside the engine has had `.grad`'s tensor (read or assigned it through the
   * property). One that nobody was handed can be released the moment the engine drops it.
   */
  private gradShared = false;
  private gradHooks: Map<number, (tensor: Tensor) => void> | null = null;

  /** @internal Use the creation functions (torch.tensor, torch.zeros, …) instead. */
  constructor(
    storage: Storage,
    shape: Shape,
    strides: Shape,
    offset: number,
    dtype: DType,
    internal = false,
  ) {
    this.shape = Object.freeze([...shape]);
    this.strides = Object.freeze([...strides]);
    this.offset = offset;
    this.dtype = dtype;
    this.res = newResources(storage, internal);
    track(full(this));
  }

  // -------------------------------------------------------------------------------------------
  // Where and what.

  /** @internal */
  get deviceObject(): Device {
    return this.res.storage.device;
  }

  /** Canonical device name: 'cpu' or 'gpu:N'. */
  get device(): string {
    return this.res.storage.device.name;
  }

  get isCuda(): boolean {
    return this.res.storage.device.kind === 'gpu';
  }

  get ndim(): number {
    return this.shape.length;
  }

  dim(): number {
    return this.shape.length;
  }

  numel(): number {
    return numel(this.shape);
  }

  /** The shape, or the size of one dimension. */
  size(dim?: number): number | readonly number[] {
    if (dim === undefined) return this.shape;
    return this.shape[normalizeDim(dim, this.shape.length, 'size')];
  }

  isContiguous(): boolean {
    return isContiguous(this.shape, this.strides);
  }

  // -------------------------------------------------------------------------------------------
  // Autograd.

  get requiresGrad(): boolean {
    return this.res.node !== null || this.leafRequiresGrad;
  }

  set requiresGrad(value: boolean) {
    if (this.res.node !== null) {
      if (value) return;
      throw new Error(
        'you can only change requiresGrad flags of leaf variables. Use .detach() to get a tensor ' +
          'that does not require grad.',
      );
    }
    if (value && this.dtype !== 'float32') {
      throw new TypeError(`Only float32 tensors can require gradients; this one is ${this.dtype}`);
    }
    this.leafRequiresGrad = value;
  }

  requiresGrad_(requiresGrad = true): this {
    this.requiresGrad = requiresGrad;
    return this;
  }

  get isLeaf(): boolean {
    return this.res.node === null;
  }

  /** The node that made this tensor, as PyTorch's grad_fn (null for leaves). */
  get gradFn(): { readonly name: string } | null {
    return this.res.node;
  }

  get grad(): Tensor | null {
    if (this.gradTensor !== null) this.gradShared = true;
    return this.gradTensor;
  }

  set grad(value: Tensor | null) {
    if (value !== null) {
      if (!(value instanceof TensorBase)) throw new TypeError('grad must be a Tensor or null');
      if (value.shape.join() !== this.shape.join() || value.device !== this.device) {
        throw new Error(
          `assigned grad has shape ${JSON.stringify(value.shape)} on ${value.device}, but the ` +
            `tensor has shape ${JSON.stringify(this.shape)} on ${this.device}`,
        );
      }
    }
    this.gradTensor = value;
    this.gradShared = value !== null;
  }

  /** @internal `.grad` for the engine's own use: reading it this way hands it to nobody. */
  get gradInternal(): Tensor | null {
    return this.gradTensor;
  }

  /** @internal Sets a gradient that only the engine has (a new one from backward or a reduce). */
  setGradInternal(value: Tensor): void {
    this.grad = value;
    this.gradShared = false;
  }

  /**
   * @internal Drops `.grad` (zero_grad's set_to_none). A gradient nobody outside the engine was
   * handed is released now, as nothing else can reach it; one that was handed out stays valid for
   * whoever holds it, as in PyTorch.
   */
  dropGrad(): void {
    const grad = this.gradTensor;
    this.gradTensor = null;
    if (grad !== null && !this.gradShared && !grad.isDisposed) grad.dispose();
    this.gradShared = false;
  }

  /**
   * PyTorch's `register_post_accumulate_grad_hook`: `hook(this)` runs after a backward pass has
   * accumulated this leaf's `.grad` (data parallelism reduces replica gradients this way).
   */
  registerPostAccumulateGradHook(hook: (tensor: Tensor) => void): { remove(): void } {
    if (!this.isLeaf) {
      throw new Error('post accumulate grad hooks cannot be registered on non-leaf tensors');
    }
    this.gradHooks ??= new Map();
    const id = nextHookId++;
    this.gradHooks.set(id, hook);
    return { remove: () => void this.gradHooks?.delete(id) };
  }

  /** @internal Called by backward once this leaf's `.grad` holds the new gradient. */
  runPostAccumulateGradHooks(): void {
    if (this.gradHooks) for (const hook of [...this.gradHooks.values()]) hook(full(this));
  }

  /** A tensor sharing this one's memory, cut from the graph. */
  detach(): Tensor {
    touch(this.res);
    return full(
      new TensorBase(this.res.storage, this.shape, this.strides, this.offset, this.dtype),
    );
  }

  /** @internal Autograd's own handle on a saved tensor (never swept; freed with its node). */
  savedHandle(): Tensor {
    return full(
      new TensorBase(this.res.storage, this.shape, this.strides, this.offset, this.dtype, true),
    );
  }

  /** @internal Makes this tensor the output of `node`. */
  attachNode(node: Node): void {
    this.res.node = node;
    node.ref();
  }

  // -------------------------------------------------------------------------------------------
  // Lifetime (see memory.ts).

  /** Holds this tensor across training steps: step sweeps never release it. */
  keep(): this {
    touch(this.res);
    keepResources(this.res);
    return this;
  }

  /** Releases the memory now; any later use of this tensor throws. */
  dispose(): void {
    releaseResources(this.res, 'disposed');
  }

  get isDisposed(): boolean {
    return this.res.released !== null;
  }

  // -------------------------------------------------------------------------------------------
  // Reading values (the only waits for a device).

  /** @internal How kernels see this tensor. */
  kernelView(): View {
    return {
      buffer: this.res.storage.buffer,
      dtype: this.dtype,
      shape: this.shape,
      strides: this.strides,
      offset: this.offset,
    };
  }

  dataSync(): never {
    throw new Error(
      'dataSync() is not available: use `await t.data()` (GPU results arrive asynchronously)',
    );
  }

  /** Synchronous summary; values need `await` (use print() or formatTensor). */
  toString(): string {
    return `Tensor(shape=[${this.shape.join(', ')}], dtype=${this.dtype}, device='${this.device}')`;
  }
}

// Every TensorBase is a Tensor: tensor.ts puts the methods on this class's prototype.
setTensorCheck((v: unknown): v is Tensor => v instanceof TensorBase);
