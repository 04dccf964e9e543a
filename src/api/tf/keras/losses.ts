/**
 * `tf.keras.losses`: callable loss objects with Keras's argument order `lossFn(yTrue, yPred)`,
 * reductions ('sum_over_batch_size' = Keras's 'auto', 'sum', 'none') and sample weights, over the
 * engine's cross-entropy. On probabilities they follow TF: the logits of a Keras softmax are used
 * when the prediction carries them, otherwise probabilities are clipped to [1e-7, 1 - 1e-7] first.
 */
import { ops, ShapeError, type Tensor } from '../../../engine';
import { asInt, asNumber, bindArgs, boolArg, describe, optional, type BoundArgs } from '../../args';
import { Callable } from '../callable';
import { kerasLogits, kerasSigmoidLogits } from './activations';
import { toTensor } from './layers/layer';
import { ValueError } from '../../tf-config';

/** Keras's backend epsilon. */
export const EPSILON = 1e-7;

export type Reduction = 'auto' | 'sum_over_batch_size' | 'sum' | 'none';

function reductionArg(value: unknown, what: string): Reduction {
  const r = value === undefined || value === null ? 'auto' : value;
  if (r !== 'auto' && r !== 'sum_over_batch_size' && r !== 'sum' && r !== 'none') {
    throw new TypeError(
      `${what}: reduction must be 'auto', 'sum_over_batch_size', 'sum' or 'none', got ${describe(value)}`,
    );
  }
  return r;
}

/** Moves a channels-last class axis to position 1, where the engine's crossEntropy wants it. */
function classesSecond(x: Tensor): Tensor {
  return x.ndim > 2 ? ops.movedim(x, x.ndim - 1, 1) : x;
}

function smoothingArg(value: unknown, what: string): number {
  const s = optional(value, asNumber, `${what}: labelSmoothing`, 0);
  if (!(s >= 0 && s <= 1))
    throw new ValueError(`${what}: labelSmoothing must be in [0, 1], got ${s}`);
  return s;
}

const pyShape = (shape: readonly number[]): string =>
  shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;

/** TF's check that targets and predictions have one shape (broadcasting would hide a bug). */
export function checkSameShape(yTrue: Tensor, yPred: Tensor, what: string): void {
  const a = yTrue.shape;
  const b = yPred.shape;
  if (a.length !== b.length || a.some((d, i) => d !== b[i]))
    throw new ValueError(`${what}: Shapes ${pyShape(a)} and ${pyShape(b)} are incompatible`);
}

/**
 * Keras's squeeze_or_expand_dimensions: labels [N] against predictions [N, 1] (or the reverse)
 * lose the trailing 1, so they compare element by element instead of broadcasting to [N, N].
 */
function alignRanks(yTrue: Tensor, yPred: Tensor): [Tensor, Tensor] {
  const diff = yPred.ndim - yTrue.ndim;
  if (diff === 1 && yPred.shape[yPred.ndim - 1] === 1) return [yTrue, ops.squeeze(yPred, -1)];
  if (diff === -1 && yTrue.shape[yTrue.ndim - 1] === 1) return [ops.squeeze(yTrue, -1), yPred];
  return [yTrue, yPred];
}

// Instances are callable (see callable.ts): the interface gives classes their call signature.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Loss {
  (yTrue: unknown, yPred: unknown, sampleWeight?: unknown): Tensor;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export abstract class Loss extends Callable<[unknown, unknown, unknown?], Tensor> {
  name: string;
  readonly reduction: Reduction;

  protected constructor(defaultName: string, kwargs: Record<string, unknown>) {
    super();
    this.name = kwargs.name === undefined ? defaultName : String(kwargs.name);
    this.reduction = reductionArg(kwargs.reduction, defaultName);
  }

  /** Whether labels are class indices, whose rank is one less than the predictions'. */
  protected readonly sparseLabels: boolean = false;

  /** The unreduced loss, one value per sample (Keras's `Loss.call`). */
  abstract call(yTrue: Tensor, yPred: Tensor): Tensor;

  protected invoke(...args: [unknown, unknown, unknown?]): Tensor {
    // Python's `loss(y_true, y_pred, sample_weight=w)` arrives with an options object.
    const a = bindArgs(
      { name: this.constructor.name, params: ['yTrue', 'yPred', 'sampleWeight'] },
      args,
    );
    const sampleWeight = a.sampleWeight;
    const pred = toTensor(a.yPred);
    let target = toTensor(a.yTrue);
    if (target.deviceObject !== pred.deviceObject) target = target.to(pred.deviceObject);
    let losses = this.sparseLabels
      ? this.call(target, pred)
      : this.call(...alignRanks(target, pred));
    if (sampleWeight !== undefined && sampleWeight !== null) {
      let w = toTensor(sampleWeight);
      if (w.deviceObject !== losses.deviceObject) w = w.to(losses.deviceObject);
      losses = ops.mul(losses, w.dtype === 'float32' ? w : ops.cast(w, 'float32'));
    }
    if (this.reduction === 'none') return losses;
    const total = ops.sum(losses);
    return this.reduction === 'sum' ? total : ops.div(total, Math.max(losses.numel(), 1));
  }

  getConfig(): Record<string, unknown> {
    return { name: this.name, reduction: this.reduction };
  }

  override toString(): string {
    return `<keras.losses ${this.name} reduction=${this.reduction}>`;
  }
}

/** Integer labels [N] (or [N, 1]) against class scores [N, C]: −log p(label). */
export class SparseCategoricalCrossentropy extends Loss {
  readonly fromLogits: boolean;
  protected override readonly sparseLabels = true;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      {
        name: 'SparseCategoricalCrossentropy',
        params: ['fromLogits', 'ignoreClass', 'reduction', 'name'],
      },
      args,
    );
    super('sparse_categorical_crossentropy', a);
    this.fromLogits = boolArg(a.fromLogits, 'SparseCategoricalCrossentropy: fromLogits');
    if (a.ignoreClass !== undefined && a.ignoreClass !== null)
      throw new TypeError('SparseCategoricalCrossentropy: ignoreClass is not supported');
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return sparseCategoricalCrossentropy(yTrue, yPred, this.fromLogits);
  }
}

export function sparseCategoricalCrossentropy(
  yTrue: Tensor,
  yPred: Tensor,
  fromLogits = false,
): Tensor {
  let labels = yTrue;
  if (labels.ndim === yPred.ndim && labels.shape[labels.ndim - 1] === 1)
    labels = ops.squeeze(labels, -1);
  if (labels.ndim !== yPred.ndim - 1) {
    throw new ShapeError(
      `SparseCategoricalCrossentropy: labels of shape ${JSON.stringify(yTrue.shape)} do not fit predictions of shape ` +
        `${JSON.stringify(yPred.shape)}; expected integer labels of shape ${JSON.stringify(yPred.shape.slice(0, -1))}`,
    );
  }
  const cached = kerasLogits(yPred);
  let logits: Tensor;
  if (cached) logits = cached;
  else if (fromLogits) logits = yPred;
  else logits = ops.log(ops.clamp(yPred, EPSILON, 1 - EPSILON));
  // sparse_softmax_cross_entropy_with_logits, which also renormalizes log-probabilities.
  return ops.crossEntropy(classesSecond(logits), ops.cast(labels, 'int32'), 'none');
}

type CrossentropyFormula = (
  yTrue: Tensor,
  yPred: Tensor,
  fromLogits: boolean,
  labelSmoothing: number,
  axis: number,
) => Tensor;

/**
 * What CategoricalCrossentropy and BinaryCrossentropy share: Keras's arguments (from_logits=False,
 * label_smoothing=0, axis=-1, reduction, name), their config, and a call of the loss's formula.
 */
abstract class SmoothedCrossentropy extends Loss {
  readonly fromLogits: boolean;
  readonly labelSmoothing: number;
  readonly axis: number;
  // An ES private field: not a property Python's dir() or a config would see.
  readonly #formula: CrossentropyFormula;

  protected constructor(
    className: string,
    defaultName: string,
    args: readonly unknown[],
    formula: CrossentropyFormula,
  ) {
    const a = bindArgs(
      { name: className, params: ['fromLogits', 'labelSmoothing', 'axis', 'reduction', 'name'] },
      args,
    );
    super(defaultName, a);
    this.fromLogits = boolArg(a.fromLogits, `${className}: fromLogits`);
    this.labelSmoothing = smoothingArg(a.labelSmoothing, className);
    this.axis = optional(a.axis, asInt, `${className}: axis`, -1);
    this.#formula = formula;
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return this.#formula(yTrue, yPred, this.fromLogits, this.labelSmoothing, this.axis);
  }

  override getConfig(): Record<string, unknown> {
    return {
      ...super.getConfig(),
      fromLogits: this.fromLogits,
      labelSmoothing: this.labelSmoothing,
      axis: this.axis,
    };
  }
}

/** One-hot (or soft) targets [N, C] against class scores [N, C]: −Σ y·log p. */
export class CategoricalCrossentropy extends SmoothedCrossentropy {
  constructor(...args: unknown[]) {
    super('CategoricalCrossentropy', 'categorical_crossentropy', args, categoricalCrossentropy);
  }
}

export function categoricalCrossentropy(
  yTrue: Tensor,
  yPred: Tensor,
  fromLogits = false,
  labelSmoothing = 0,
  axis = -1,
): Tensor {
  checkSameShape(yTrue, yPred, 'categorical_crossentropy');
  if (axis !== -1 && axis !== yPred.ndim - 1) {
    // The class axis moves last; logits remembered by a softmax apply only on the last axis.
    const last = (t: Tensor): Tensor => ops.movedim(t, axis, -1);
    return categoricalCrossentropy(last(yTrue), last(yPred), fromLogits, labelSmoothing, -1);
  }
  let target = yTrue.dtype === 'float32' ? yTrue : ops.cast(yTrue, 'float32');
  if (labelSmoothing > 0) {
    const classes = yPred.shape[yPred.ndim - 1];
    target = ops.add(ops.mul(target, 1 - labelSmoothing), labelSmoothing / classes);
  }
  const cached = kerasLogits(yPred);
  let logp: Tensor;
  if (cached || fromLogits) logp = ops.logSoftmax(cached ?? yPred, -1);
  else {
    const p = ops.div(yPred, ops.sum(yPred, -1, true));
    logp = ops.log(ops.clamp(p, EPSILON, 1 - EPSILON));
  }
  return ops.neg(ops.sum(ops.mul(target, logp), -1));
}

/** Squared error averaged over the last axis. */
export class MeanSquaredError extends Loss {
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'MeanSquaredError', params: ['reduction', 'name'] }, args);
    super('mean_squared_error', a);
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return meanSquaredError(yTrue, yPred);
  }
}

export function meanSquaredError(yTrue: Tensor, yPred: Tensor): Tensor {
  const target = yTrue.dtype === 'float32' ? yTrue : ops.cast(yTrue, 'float32');
  return ops.mean(ops.square(ops.sub(yPred, target)), -1);
}

/** Binary targets against probabilities (or logits), averaged over `axis` (Keras's formula). */
export class BinaryCrossentropy extends SmoothedCrossentropy {
  constructor(...args: unknown[]) {
    super('BinaryCrossentropy', 'binary_crossentropy', args, binaryCrossentropy);
  }
}

/**
 * Keras's binary_crossentropy: targets smoothed towards ½ (`y·(1 − s) + s/2`), then per element
 * `max(x, 0) − x·y + log(1 + e^−|x|)` on logits, or `−(y·log p + (1 − y)·log(1 − p))` on
 * probabilities clipped to [1e-7, 1 − 1e-7] (logs of p + 1e-7 and 1 − p + 1e-7, as TF 2.15's
 * backend); the mean over `axis`.
 */
export function binaryCrossentropy(
  yTrue: Tensor,
  yPred: Tensor,
  fromLogits = false,
  labelSmoothing = 0,
  axis = -1,
): Tensor {
  checkSameShape(yTrue, yPred, 'binary_crossentropy');
  let y = yTrue.dtype === 'float32' ? yTrue : ops.cast(yTrue, 'float32');
  if (labelSmoothing > 0) y = ops.add(ops.mul(y, 1 - labelSmoothing), 0.5 * labelSmoothing);
  let perElement: Tensor;
  // A Keras sigmoid output brings its logits, which TF 2.15 uses as if fromLogits were given.
  const cached = kerasSigmoidLogits(yPred);
  if (fromLogits || cached) {
    // max(x, 0) − x·y + log(1 + exp(−|x|)): stable for large |x|.
    const x = cached ?? yPred;
    perElement = ops.add(
      ops.sub(ops.relu(x), ops.mul(x, y)),
      ops.log(ops.add(ops.exp(ops.neg(ops.abs(x))), 1)),
    );
  } else {
    // TF 2.15's backend also adds epsilon inside both logs (Keras 3 does not).
    const p = ops.clamp(yPred, EPSILON, 1 - EPSILON);
    perElement = ops.neg(
      ops.add(
        ops.mul(y, ops.log(ops.add(p, EPSILON))),
        ops.mul(ops.sub(1, y), ops.log(ops.sub(1 + EPSILON, p))),
      ),
    );
  }
  return ops.mean(perElement, axis);
}

/** Squared error within `delta` of the target, linear beyond it; the mean over the last axis. */
export class Huber extends Loss {
  readonly delta: number;

  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'Huber', params: ['delta', 'reduction', 'name'] }, args);
    super('huber_loss', a);
    this.delta = optional(a.delta, asNumber, 'Huber: delta', 1);
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return huber(yTrue, yPred, this.delta);
  }

  override getConfig(): Record<string, unknown> {
    return { ...super.getConfig(), delta: this.delta };
  }
}

/** Keras's huber: ½e² where |e| ≤ delta, delta·|e| − ½delta² elsewhere (e = yPred − yTrue). */
export function huber(yTrue: Tensor, yPred: Tensor, delta = 1): Tensor {
  checkSameShape(yTrue, yPred, 'huber');
  const target = yTrue.dtype === 'float32' ? yTrue : ops.cast(yTrue, 'float32');
  const error = ops.sub(yPred, target);
  const absError = ops.abs(error);
  const quadratic = ops.mul(ops.square(error), 0.5);
  const linear = ops.sub(ops.mul(absError, delta), 0.5 * delta * delta);
  return ops.mean(ops.where(ops.le(absError, delta), quadratic, linear), -1);
}

/** Kullback–Leibler divergence of predictions from targets, summed over the last axis. */
export class KLDivergence extends Loss {
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'KLDivergence', params: ['reduction', 'name'] }, args);
    super('kl_divergence', a);
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return klDivergence(yTrue, yPred);
  }
}

/** Keras's kl_divergence: Σ y·log(y / p), both clipped to [1e-7, 1] first. */
export function klDivergence(yTrue: Tensor, yPred: Tensor): Tensor {
  checkSameShape(yTrue, yPred, 'kl_divergence');
  const y = ops.clamp(yTrue.dtype === 'float32' ? yTrue : ops.cast(yTrue, 'float32'), EPSILON, 1);
  const p = ops.clamp(yPred, EPSILON, 1);
  return ops.sum(ops.mul(y, ops.log(ops.div(y, p))), -1);
}

type LossFn = (yTrue: Tensor, yPred: Tensor) => Tensor;

/** Keras's string names for losses (as `compile({ loss: 'sparse_categorical_crossentropy' })`). */
const BY_NAME: Record<string, () => Loss> = {
  sparse_categorical_crossentropy: () => new SparseCategoricalCrossentropy(),
  categorical_crossentropy: () => new CategoricalCrossentropy(),
  binary_crossentropy: () => new BinaryCrossentropy(),
  mean_squared_error: () => new MeanSquaredError(),
  mse: () => new MeanSquaredError(),
  huber: () => new Huber(),
  huber_loss: () => new Huber(),
  kl_divergence: () => new KLDivergence(),
  kullback_leibler_divergence: () => new KLDivergence(),
  kld: () => new KLDivergence(),
};

/** A compiled loss: the batch's scalar loss from labels, predictions and optional sample weights. */
export interface CompiledLoss {
  name: string;
  fn: (yTrue: Tensor, yPred: Tensor, sampleWeight?: Tensor | null) => Tensor;
  /** Whether labels are class indices (so 'accuracy' means SparseCategoricalAccuracy). */
  sparse: boolean;
}

/** A loss given as a Keras name, a Loss object or a function (yTrue, yPred) → per-sample losses. */
export function getLoss(spec: unknown): CompiledLoss {
  if (typeof spec === 'string') {
    const make = BY_NAME[spec] ?? BY_NAME[spec.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()];
    if (!make)
      throw new TypeError(
        `Unknown loss function: ${JSON.stringify(spec)}; use one of ${Object.keys(BY_NAME).join(', ')}`,
      );
    return getLoss(make());
  }
  if (spec instanceof Loss) {
    return {
      name: spec.name,
      fn: (t, p, w) => spec(t, p, w ?? undefined),
      sparse: spec instanceof SparseCategoricalCrossentropy,
    };
  }
  if (typeof spec === 'function') {
    const fn = spec as LossFn;
    return {
      name: fn.name || 'loss',
      fn: (t, p, w) => {
        const values = fn(t, p);
        return ops.mean(w ? ops.mul(values, w) : values);
      },
      sparse: false,
    };
  }
  throw new TypeError(
    `loss must be a Keras loss name, a tf.keras.losses object or a function, got ${describe(spec)}`,
  );
}

/** `tf.keras.losses.<function>(yTrue, yPred, …)` with Keras's positional and keyword arguments. */
function lossFunction(
  name: string,
  params: readonly string[],
  fn: (yTrue: Tensor, yPred: Tensor, a: BoundArgs) => Tensor,
): (...args: unknown[]) => Tensor {
  return (...args: unknown[]): Tensor => {
    const a = bindArgs({ name, params: ['yTrue', 'yPred', ...params] }, args);
    const pred = toTensor(a.yPred);
    let target = toTensor(a.yTrue);
    if (target.deviceObject !== pred.deviceObject) target = target.to(pred.deviceObject);
    return fn(target, pred, a);
  };
}

const crossEntropyArgs = (a: BoundArgs, what: string): [boolean, number, number] => [
  boolArg(a.fromLogits, `${what}: fromLogits`),
  smoothingArg(a.labelSmoothing, what),
  optional(a.axis, asInt, `${what}: axis`, -1),
];

const bce = lossFunction(
  'binary_crossentropy',
  ['fromLogits', 'labelSmoothing', 'axis'],
  (t, p, a) => binaryCrossentropy(t, p, ...crossEntropyArgs(a, 'binary_crossentropy')),
);
const cce = lossFunction(
  'categorical_crossentropy',
  ['fromLogits', 'labelSmoothing', 'axis'],
  (t, p, a) => categoricalCrossentropy(t, p, ...crossEntropyArgs(a, 'categorical_crossentropy')),
);
const scce = lossFunction(
  'sparse_categorical_crossentropy',
  ['fromLogits', 'axis', 'ignoreClass'],
  (t, p, a) =>
    sparseCategoricalCrossentropy(t, p, boolArg(a.fromLogits, 'sparse_categorical_crossentropy')),
);
const mse = lossFunction('mean_squared_error', [], (t, p) => meanSquaredError(t, p));
const huberFn = lossFunction('huber', ['delta'], (t, p, a) =>
  huber(t, p, optional(a.delta, asNumber, 'huber: delta', 1)),
);
const kld = lossFunction('kl_divergence', [], (t, p) => klDivergence(t, p));

export const losses = {
  Loss,
  SparseCategoricalCrossentropy,
  CategoricalCrossentropy,
  BinaryCrossentropy,
  MeanSquaredError,
  Huber,
  KLDivergence,
  sparseCategoricalCrossentropy: scce,
  categoricalCrossentropy: cce,
  binaryCrossentropy: bce,
  meanSquaredError: mse,
  mse,
  MSE: mse,
  huber: huberFn,
  klDivergence: kld,
  kld,
  KLD: kld,
  kullbackLeiblerDivergence: kld,
  /** Keras's `losses.get(identifier)`: a loss object from its name. */
  get: (identifier: unknown): Loss | ((...args: unknown[]) => Tensor) => {
    if (identifier instanceof Loss || typeof identifier === 'function')
      return identifier as Loss | ((...args: unknown[]) => Tensor);
    const make = typeof identifier === 'string' ? BY_NAME[identifier] : undefined;
    if (!make)
      throw new ValueError(`Could not interpret loss function identifier: ${describe(identifier)}`);
    return make();
  },
};
