/**
 * The Keras Layer: a callable object (`layer(x, { training })`) that creates its weights on first
 * use from the input's shape (or from a declared `inputShape`), checks inputs against what it was
 * built for with Keras's messages, and exposes `weights` / `trainableVariables` / `countParams()`.
 * Weights are persistent engine tensors on the default tf device at build time.
 */
import {
  defaultDevice,
  noGrad,
  ops,
  ShapeError,
  Tensor,
  type TypedArray,
} from '../../../../engine';
import { bindArgs, isOptionsObject, optional, asBool, type BoundArgs } from '../../../args';
import { Callable } from '../../callable';
import { isKerasTensor, kerasTensorsIn, type KerasTensor, type Node } from '../engine/keras-tensor';
import { KerasValueError } from '../engine/errors';
import { nodesOf, symbolicCall } from '../engine/symbolic-call';
import type { InitializerFn } from '../initializers';
import { uniqueName } from '../naming';
import { kerasMask, setKerasMask } from './masking';

/** A Keras shape: sizes with null for "any" (the batch dimension, usually). */
export type ShapeSpec = readonly (number | null)[];

export interface CallOptions {
  /** Dropout and similar layers act only when training. */
  training?: boolean;
}

/** The keyword arguments every Keras layer accepts (camelCased). */
export const LAYER_KWARGS = [
  'name',
  'inputShape',
  'batchInputShape',
  'batchSize',
  'inputDim',
  'trainable',
  'dtype',
] as const;

/** Keras's `InputSpec`: what inputs the built layer accepts. */
export interface InputSpec {
  ndim?: number;
  minNdim?: number;
  /** Required sizes by axis (negative counts from the end). */
  axes?: Record<number, number>;
}

export interface Weight {
  /** Keras's variable name: 'dense/kernel:0'. */
  name: string;
  value: Tensor;
  trainable: boolean;
}

/** Keras's `to_snake_case`: 'MaxPooling1D' → 'max_pooling1d', 'Conv1D' → 'conv1d'. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/(.)([A-Z][a-z0-9]+)/g, '$1_$2')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

export function formatShapeSpec(shape: ShapeSpec): string {
  const parts = shape.map((d) => (d === null ? 'None' : String(d)));
  return `(${parts.join(', ')}${parts.length === 1 ? ',' : ''})`;
}

// Instances are callable (see callable.ts): the interface gives classes their call signature.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Layer {
  /** On symbolic inputs (functional API): records a node and returns its symbolic outputs. */
  (inputs: KerasTensor | readonly KerasTensor[], options?: CallOptions): KerasTensor;
  (inputs: unknown, options?: CallOptions): Tensor;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export abstract class Layer extends Callable<[unknown, CallOptions?], Tensor> {
  /** The class name Keras shows in summaries ('Embedding', 'MaxPooling1D'). */
  readonly className: string;
  name: string;
  trainable: boolean;
  built = false;
  /** The input shape given at construction (`inputShape`, `inputLength`, …), batch first. */
  declaredInputShape: ShapeSpec | null;
  protected inputSpec: InputSpec | null = null;
  private readonly weightList: Weight[] = [];
  private builtInput: ShapeSpec | null = null;
  private builtOutput: ShapeSpec | null = null;

  protected constructor(className: string, kwargs: BoundArgs) {
    super();
    this.className = className;
    this.name =
      kwargs.name === undefined ? uniqueName(toSnakeCase(className)) : String(kwargs.name);
    this.trainable = optional(kwargs.trainable, asBool, `${className}: trainable`, true);
    this.declaredInputShape = declaredShape(className, kwargs);
  }

  // -------------------------------------------------------------------------------------------
  // What subclasses provide.

  /** Output shape for an input shape (batch first, null = unknown). */
  abstract computeOutputShape(inputShape: ShapeSpec): ShapeSpec;

  /** Creates the weights for this input shape (layers without weights need not override). */
  protected buildWeights(_inputShape: ShapeSpec): void {}

  /**
   * The forward computation on an input already checked against the built shape; `mask` is the
   * Keras mask the input carries (masking.ts), for layers that use it.
   */
  protected abstract call(x: Tensor, training: boolean, mask?: Tensor | null): Tensor;

  /** Keras's `supports_masking`: a mask on the input is passed on unchanged (computeMask). */
  supportsMasking = false;

  /** Keras's `compute_mask`: the output's mask from the input's (none unless supportsMasking). */
  computeMask(_x: Tensor, mask: Tensor | null): Tensor | null {
    return this.supportsMasking ? mask : null;
  }

  // -------------------------------------------------------------------------------------------
  // Building and calling.

  /** Keras's `build(input_shape)`: creates the weights once. */
  build(inputShape: ShapeSpec): void {
    if (this.built) return;
    this.buildWeights(inputShape);
    this.builtInput = [...inputShape];
    this.builtOutput = this.computeOutputShape(inputShape);
    this.built = true;
  }

  /** The input shape the layer was built for (batch first). */
  get inputShape(): ShapeSpec {
    if (!this.builtInput)
      throw new Error(
        `The layer "${this.name}" has never been called and thus has no defined input shape.`,
      );
    return this.builtInput;
  }

  /** The output shape the layer produces (batch first). */
  get outputShape(): ShapeSpec {
    if (!this.builtOutput)
      throw new Error(
        `The layer "${this.name}" has never been called and thus has no defined output shape.`,
      );
    return this.builtOutput;
  }

  /**
   * Every call enters here (callable.ts): on symbolic inputs (KerasTensors, alone or in lists,
   * in any positional argument) the call is recorded as a node of the functional graph
   * (engine/symbolic-call.ts); otherwise it runs eagerly through `invoke`, which layers with
   * several inputs override (`invoke(query, value, key, options)`).
   */
  protected override dispatch(args: unknown[]): Tensor {
    if (args.some((a) => isKerasTensor(a) || (Array.isArray(a) && kerasTensorsIn(a).length > 0))) {
      return symbolicCall(this, args) as unknown as Tensor;
    }
    return this.invoke(...(args as [unknown, CallOptions?]));
  }

  /** Keras's `layer.input`: the symbolic input of the layer's one call in a functional graph. */
  get input(): KerasTensor | KerasTensor[] {
    const node = this.onlyNode('input');
    const [first] = node.args;
    return node.args.length === 1 && (isKerasTensor(first) || Array.isArray(first))
      ? (first as KerasTensor | KerasTensor[])
      : [...node.inputs];
  }

  /** Keras's `layer.output`: the symbolic output of the layer's one call in a functional graph. */
  get output(): KerasTensor | KerasTensor[] {
    const outputs = this.onlyNode('output').outputs;
    return Array.isArray(outputs) ? [...outputs] : (outputs as KerasTensor);
  }

  private onlyNode(what: string): Node {
    const nodes = nodesOf(this);
    if (nodes.length === 0) throw new Error(`Layer ${this.name} has no inbound nodes.`);
    if (nodes.length > 1)
      throw new Error(
        `Layer ${this.name} has multiple inbound nodes, hence the notion of "layer ${what}" is ill-defined. Use \`get_${what}_at(node_index)\` instead.`,
      );
    return nodes[0];
  }

  /** The eager call on real tensors, whatever the layer's own `invoke` signature (symbolic-call.ts). */
  callEager(args: readonly unknown[]): unknown {
    return (this.invoke as (...a: unknown[]) => unknown)(...args);
  }

  /**
   * Builds the layer for its symbolic inputs before its first symbolic call (Keras builds from
   * the KerasTensors' shapes, so sizes left null stay unknown; merging layers check their list
   * here); models build themselves.
   */
  buildSymbolicArgs(positional: readonly unknown[]): void {
    const [first] = positional;
    if (positional.length === 1 && isKerasTensor(first)) this.buildSymbolic(first.shape);
  }

  /** buildSymbolicArgs for the usual single symbolic input. */
  buildSymbolic(inputShape: ShapeSpec): void {
    if (!this.built) this.build(inputShape);
    this.checkShape(inputShape);
  }

  protected invoke(inputs: unknown, options?: CallOptions): Tensor {
    const training = isOptionsObject(options)
      ? optional(options.training, asBool, 'training', false)
      : false;
    let x = toTensor(inputs);
    if (!this.built) this.build([null, ...x.shape.slice(1)]);
    this.checkInput(x);
    let mask = kerasMask(x);
    const device = this.weightList[0]?.value.deviceObject;
    // TensorFlow copies inputs to the variables' device; our ops require one device, so do it here.
    if (device && x.deviceObject !== device) {
      x = x.to(device);
      if (mask) mask = mask.to(device);
    }
    const y = this.call(x, training, mask);
    const outMask = this.computeMask(x, mask);
    if (outMask && outMask !== kerasMask(y)) setKerasMask(y, outMask);
    return y;
  }

  /** Throws Keras's message when an input does not fit the built layer. */
  protected checkInput(x: Tensor): void {
    this.checkShape(x.shape);
  }

  /** checkInput on a shape (a symbolic input's, with null for unknown sizes, which always fit). */
  checkShape(inputShape: ShapeSpec): void {
    const spec = this.inputSpec;
    if (!spec) return;
    const shape = formatShapeSpec(inputShape);
    const ndim = inputShape.length;
    const head = `Input 0 of layer "${this.name}" is incompatible with the layer:`;
    if (spec.ndim !== undefined && ndim !== spec.ndim) {
      throw new KerasValueError(
        `${head} expected ndim=${spec.ndim}, found ndim=${ndim}. Full shape received: ${shape}`,
      );
    }
    if (spec.minNdim !== undefined && ndim < spec.minNdim) {
      throw new KerasValueError(
        `${head} expected min_ndim=${spec.minNdim}, found ndim=${ndim}. Full shape received: ${shape}`,
      );
    }
    for (const [axisText, size] of Object.entries(spec.axes ?? {})) {
      const axis = Number(axisText);
      const actual = inputShape[axis < 0 ? ndim + axis : axis];
      if (actual !== size && actual !== null) {
        throw new KerasValueError(
          `${head} expected axis ${axis} of input shape to have value ${size}, but received input with shape ${shape}`,
        );
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Weights.

  /** Keras's `add_weight`: a persistent tensor on the default tf device. */
  protected addWeight(
    name: string,
    shape: readonly number[],
    initializer: InitializerFn,
    trainable = true,
  ): Tensor {
    const value = initializer(shape, defaultDevice('tf'));
    const owned = value.isContiguous() ? value : ops.contiguous(value);
    owned.requiresGrad = trainable && this.trainable;
    owned.keep();
    this.weightList.push({ name: `${this.name}/${name}:0`, value: owned, trainable });
    return owned;
  }

  /** Every weight with its Keras name. */
  get namedWeights(): readonly Weight[] {
    return this.weightList;
  }

  get weights(): Tensor[] {
    return [...this.trainableWeights, ...this.nonTrainableWeights];
  }

  get trainableWeights(): Tensor[] {
    return this.trainable ? this.weightList.filter((w) => w.trainable).map((w) => w.value) : [];
  }

  get nonTrainableWeights(): Tensor[] {
    return this.weightList.filter((w) => !this.trainable || !w.trainable).map((w) => w.value);
  }

  get trainableVariables(): Tensor[] {
    return this.trainableWeights;
  }

  get variables(): Tensor[] {
    return this.weights;
  }

  /** The weights' values as typed arrays (Keras's `get_weights`, which returns NumPy arrays). */
  async getWeights(): Promise<TypedArray[]> {
    return Promise.all(this.weights.map((w) => w.data()));
  }

  /** Overwrites the weights in place, in the order of `weights` (tensors or typed arrays). */
  setWeights(values: readonly (Tensor | ArrayLike<number>)[]): void {
    const weights = this.weights;
    if (values.length !== weights.length) {
      throw new Error(
        `You called setWeights(weights) on layer "${this.name}" with a weight list of length ${values.length}, but the layer was expecting ${weights.length} weights.`,
      );
    }
    noGrad(() => {
      weights.forEach((w, i) => {
        const v = values[i];
        const source =
          v instanceof Tensor
            ? v
            : ops.fromHost(Float32Array.from(v), w.shape, { device: w.deviceObject });
        if (source.numel() !== w.numel()) {
          throw new ShapeError(
            `Layer "${this.name}" weight ${i} has shape ${formatShapeSpec(w.shape)}; the value given has ${source.numel()} elements`,
          );
        }
        w.copy_(ops.reshape(source, w.shape));
      });
    });
  }

  countParams(): number {
    if (!this.built) {
      throw new Error(
        `You tried to call \`countParams\` on layer ${this.name}, but the layer isn't built. ` +
          `You can build it manually via: \`${this.name}.build(batchInputShape)\`.`,
      );
    }
    return this.weightList.reduce((n, w) => n + w.value.numel(), 0);
  }

  override toString(): string {
    return `<${this.className} name=${this.name}, built=${this.built}>`;
  }
}

/** `inputShape` (without batch), `batchInputShape`, or `inputDim` (Dense), batch first. */
function declaredShape(className: string, kwargs: BoundArgs): ShapeSpec | null {
  if (kwargs.batchInputShape !== undefined)
    return shapeList(kwargs.batchInputShape, `${className}: batchInputShape`);
  const batch = kwargs.batchSize === undefined ? null : Number(kwargs.batchSize);
  if (kwargs.inputShape !== undefined) {
    return [batch, ...shapeList(kwargs.inputShape, `${className}: inputShape`)];
  }
  if (kwargs.inputDim !== undefined) return [batch, Number(kwargs.inputDim)];
  return null;
}

function shapeList(value: unknown, what: string): (number | null)[] {
  const list = typeof value === 'number' ? [value] : value;
  if (
    !Array.isArray(list) ||
    !list.every((d) => d === null || (Number.isInteger(d) && (d as number) >= 0))
  ) {
    throw new TypeError(`${what} must be a list of sizes (null for any), e.g. [28, 28, 1]`);
  }
  return list as (number | null)[];
}

/** Layer inputs: a tensor, or nested arrays / a typed array made into one on the default tf device. */
export function toTensor(inputs: unknown): Tensor {
  if (inputs instanceof Tensor) return inputs;
  if (Array.isArray(inputs) || ArrayBuffer.isView(inputs) || typeof inputs === 'number') {
    return ops.fromData(inputs, { device: defaultDevice('tf') });
  }
  throw new TypeError(
    `a layer expects a tensor (or nested arrays of numbers), got ${inputs === null ? 'null' : typeof inputs}`,
  );
}

/** Binds a Keras layer constructor's arguments: Python positional params plus the common kwargs. */
export function bindLayerArgs(
  name: string,
  params: readonly string[],
  keywordOnly: readonly string[],
  args: readonly unknown[],
): BoundArgs {
  return bindArgs({ name, params, keywordOnly: [...keywordOnly, ...LAYER_KWARGS] }, args);
}
