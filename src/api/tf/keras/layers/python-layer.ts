/**
 * The TS side of a Keras layer subclassed in Python (`class Linear(keras.layers.Layer)`,
 * tensorflow/keras/_subclassing.py): a Layer whose `build`, `call`, `compute_output_shape` and
 * `compute_mask` are the Python methods, called synchronously through `PythonHooks`. Everything
 * else — weights, `trainable`, device placement, masks riding on tensors, `get_weights`, use
 * inside Sequential or a model's fit — is the TS Layer's, so a Python layer behaves as a built-in
 * one does. Sublayers and weights the Python object holds as attributes are tracked here, in the
 * order they were first assigned (Keras's attribute tracking).
 */
import { defaultDevice, noGrad, ops, Tensor } from '../../../../engine';
import { bindArgs, isOptionsObject, optional, asBool } from '../../../args';
import { ValueError } from '../../../tf-config';
import { getInitializer } from '../initializers';
import { kerasMask, setKerasMask } from './masking';
import { uniqueName } from '../naming';
import {
  Layer,
  LAYER_KWARGS,
  toSnakeCase,
  toTensor,
  type CallOptions,
  type ShapeSpec,
  type Weight,
} from './layer';

/** The Python object's methods, as JavaScript functions (Python's exceptions cross as errors). */
export interface PythonHooks {
  /** `call(inputs, training=…, mask=…)` (each passed only where the method takes it). */
  call(x: Tensor, training: boolean, mask: Tensor | null): Tensor;
  /** `build(input_shape)` with the first input's full shape; once. */
  build(shape: (number | null)[]): void;
  /** The class's own `compute_output_shape`, when it defines one. */
  computeOutputShape?: ((shape: (number | null)[]) => ShapeSpec) | null;
  /** The class's own `compute_mask`, when it defines one. */
  computeMask?: ((x: Tensor, mask: Tensor | null) => Tensor | null) | null;
}

/**
 * What a Python layer or model tracks from its attributes, in the order they were first
 * assigned: layers (or lists of them) and `tf.Variable`s (weights made outside add_weight, as
 * TensorFlow's Keras guide does in `__init__`).
 */
export class TrackedLayers {
  private readonly slots = new Map<string, Layer[]>();
  private readonly variableSlots = new Map<string, { value: Tensor; trainable: boolean }>();

  /** An attribute set to a layer, a list of layers, a variable, or something else (untracked). */
  set(name: string, value: unknown): void {
    if (value instanceof Tensor) {
      this.slots.delete(name);
      this.variableSlots.set(name, { value, trainable: value.requiresGrad });
      return;
    }
    this.variableSlots.delete(name);
    const list = value instanceof Layer ? [value] : Array.isArray(value) ? value : [];
    const layers = list.filter((v): v is Layer => v instanceof Layer);
    if (layers.length === 0) this.slots.delete(name);
    // A Map keeps a re-assigned key in its first place, as Keras keeps a tracked attribute.
    else this.slots.set(name, layers);
  }

  get layers(): Layer[] {
    return [...new Set([...this.slots.values()].flat())];
  }

  /** The variables with Keras-style names ('linear/w:0'), their owner's weights. */
  variables(owner: string): Weight[] {
    return [...this.variableSlots].map(([attr, v]) => ({
      name: `${owner}/${attr}:0`,
      value: v.value,
      trainable: v.trainable,
    }));
  }

  /** Trainable and non-trainable weights of the variables (all non-trainable when frozen). */
  split(owner: string, trainable: boolean): [Tensor[], Tensor[]] {
    const vars = this.variables(owner);
    const on = trainable ? vars.filter((w) => w.trainable).map((w) => w.value) : [];
    const off = vars.filter((w) => !trainable || !w.trainable).map((w) => w.value);
    return [on, off];
  }
}

/** Weights a Python `add_weight` creates (the Python side reaches the protected addWeight here). */
export interface PythonWeightOwner {
  addPythonWeight(...args: unknown[]): Tensor;
}

/** Keras's `add_weight` arguments (Python positional order), for both the layer and the model. */
export const ADD_WEIGHT_PARAMS = [
  'name',
  'shape',
  'dtype',
  'initializer',
  'regularizer',
  'trainable',
  'constraint',
] as const;

export function bindAddWeight(
  owner: string,
  args: readonly unknown[],
): { name: string | null; shape: number[]; initializer: unknown; trainable: boolean } {
  const a = bindArgs(
    {
      name: `${owner}.add_weight`,
      params: [...ADD_WEIGHT_PARAMS],
      keywordOnly: ['useResource', 'synchronization', 'aggregation'],
    },
    args,
  );
  for (const k of ['regularizer', 'constraint'] as const) {
    if (a[k] !== undefined && a[k] !== null)
      throw new TypeError(`${owner}.add_weight: ${k} is not supported`);
  }
  if (a.dtype !== undefined && a.dtype !== null && !/float32|float64|^float$/.test(String(a.dtype)))
    throw new TypeError(
      `${owner}.add_weight: only float32 weights are supported, got dtype=${String(a.dtype)}`,
    );
  const raw = a.shape === undefined || a.shape === null ? [] : a.shape;
  const shape = typeof raw === 'number' ? [raw] : raw;
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && (d as number) >= 0)) {
    throw new ValueError(
      `${owner}.add_weight: shape must be a tuple of non-negative ints, got ${JSON.stringify(raw)}`,
    );
  }
  return {
    name: a.name === undefined || a.name === null ? null : String(a.name),
    shape: shape as number[],
    initializer: a.initializer ?? 'glorot_uniform',
    trainable: optional(a.trainable, asBool, `${owner}.add_weight: trainable`, true),
  };
}

/** A weight name unique in its layer ('Variable', 'Variable_1', …), as Keras's are per layer. */
export function freshWeightName(taken: readonly string[], prefix: string, base: string): string {
  let name = base;
  for (let i = 1; taken.includes(`${prefix}/${name}:0`); i++) name = `${base}_${i}`;
  return name;
}

export class PythonLayer extends Layer implements PythonWeightOwner {
  readonly tracked = new TrackedLayers();
  /** The Python object's number (tensorflow/_js_object.py OWNERS): Python gets its own object back. */
  pythonOwner: number | null = null;
  private readonly hooks: PythonHooks;
  private lastOutputShape: ShapeSpec | null = null;

  /** `new PythonLayer(className, hooks, ...Keras Layer.__init__ arguments)`. */
  constructor(className: string, hooks: PythonHooks, ...args: unknown[]) {
    const a = bindArgs(
      {
        name: className,
        params: ['trainable', 'name', 'dtype', 'dynamic'],
        keywordOnly: LAYER_KWARGS.filter((k) => !['trainable', 'name', 'dtype'].includes(k)),
      },
      args,
    );
    super(className, {
      ...a,
      name: a.name ?? uniqueName(toSnakeCase(className)),
    });
    this.hooks = hooks;
    if (a.dynamic === true) throw new TypeError(`${className}: dynamic=True is not supported`);
  }

  /** Keras's `add_weight(name, shape, dtype, initializer, regularizer, trainable, …)`. */
  addPythonWeight(...args: unknown[]): Tensor {
    const w = bindAddWeight(this.className, args);
    const taken = this.namedWeights.map((n) => n.name);
    const name = freshWeightName(taken, this.name, w.name ?? 'Variable');
    const init = getInitializer(w.initializer, `${this.className}.add_weight: initializer`);
    return this.addWeight(name, w.shape, init, w.trainable);
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    if (this.hooks.computeOutputShape) return this.hooks.computeOutputShape([...inputShape]);
    // Known only by calling the layer (see outputShape); the input's until then.
    return this.lastOutputShape ?? inputShape;
  }

  override get outputShape(): ShapeSpec {
    if (this.hooks.computeOutputShape) return super.outputShape;
    if (!this.lastOutputShape) {
      if (!this.built)
        throw new Error(
          `The layer "${this.name}" has never been called and thus has no defined output shape.`,
        );
      this.lastOutputShape = this.probeOutputShape(this.inputShape);
    }
    return this.lastOutputShape;
  }

  /**
   * Keras's default compute_output_shape traces `call` on a symbolic input; without graphs we
   * call it once on zeros (unknown sizes as 1), as Sequential needs the shape to build the next
   * layer before any data arrives.
   */
  private probeOutputShape(input: ShapeSpec): ShapeSpec {
    const device = this.weights[0]?.deviceObject ?? defaultDevice('tf');
    const zeros = ops.zeros(
      input.map((d) => d ?? 1),
      { device },
    );
    const y = noGrad(() => this.call(zeros, false, null));
    return [input[0] === null ? null : y.shape[0], ...y.shape.slice(1)];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    this.hooks.build([...inputShape]);
  }

  override computeMask(x: Tensor, mask: Tensor | null): Tensor | null {
    if (this.hooks.computeMask) return this.hooks.computeMask(x, mask);
    return super.computeMask(x, mask);
  }

  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    const x = toTensor(inputs);
    // Keras builds a layer called eagerly with the input's full shape (batch size included).
    if (!this.built) this.build(x.shape);
    const y = super.invoke(x, options);
    this.lastOutputShape = [null, ...y.shape.slice(1)];
    return y;
  }

  protected call(x: Tensor, training: boolean, mask?: Tensor | null): Tensor {
    return this.hooks.call(x, training, mask ?? null);
  }

  /**
   * The first half of a call Python makes itself (so `call` runs in Python's own frame, where it
   * may read tensors back): builds once, checks and moves the input as invoke does; returns the
   * input to pass and its Keras mask.
   */
  pythonEnter(inputs: unknown): [Tensor, Tensor | null] {
    let x = toTensor(inputs);
    if (!this.built) this.build(x.shape);
    this.checkInput(x);
    let mask = kerasMask(x);
    const device = this.weights[0]?.deviceObject;
    if (device && x.deviceObject !== device) {
      x = x.to(device);
      if (mask) mask = mask.to(device);
    }
    return [x, mask];
  }

  /** The second half: the output's mask and shape, as invoke gives them. */
  pythonExit(x: Tensor, y: Tensor, mask: Tensor | null): Tensor {
    const outMask = this.computeMask(x, mask);
    if (outMask && outMask !== kerasMask(y)) setKerasMask(y, outMask);
    this.lastOutputShape = [null, ...y.shape.slice(1)];
    return y;
  }

  /** Own weights first (add_weight's, then variables), then the sublayers' (Keras's order). */
  override get trainableWeights(): Tensor[] {
    if (!this.trainable) return [];
    return [
      ...super.trainableWeights,
      ...this.tracked.split(this.name, true)[0],
      ...this.tracked.layers.flatMap((l) => l.trainableWeights),
    ];
  }

  override get nonTrainableWeights(): Tensor[] {
    const sub = this.tracked.layers.flatMap((l) =>
      this.trainable ? l.nonTrainableWeights : l.weights,
    );
    return [
      ...super.nonTrainableWeights,
      ...this.tracked.split(this.name, this.trainable)[1],
      ...sub,
    ];
  }

  override get namedWeights(): Layer['namedWeights'] {
    return [
      ...super.namedWeights,
      ...this.tracked.variables(this.name),
      ...this.tracked.layers.flatMap((l) => l.namedWeights),
    ];
  }

  override countParams(): number {
    return countTrackedParams(this);
  }
}

/**
 * Keras's count_params of a subclassed layer or model: every weight it tracks (its own, its
 * attributes' variables and layers'), refused before it is built as Keras refuses it.
 */
export function countTrackedParams(layer: Pick<Layer, 'built' | 'name' | 'namedWeights'>): number {
  if (!layer.built) {
    throw new ValueError(
      `You tried to call \`count_params\` on layer ${layer.name}, but the layer isn't built. ` +
        `You can build it manually via: \`${layer.name}.build(batch_input_shape)\`.`,
    );
  }
  return layer.namedWeights.reduce((n, w) => n + w.value.numel(), 0);
}

/** `training` from a call's options (false unless given). */
export function trainingOf(options: CallOptions | undefined): boolean {
  return isOptionsObject(options) ? optional(options.training, asBool, 'training', false) : false;
}
