/**
 * `tf.keras.losses`: callable loss objects with Keras's argument order `lossFn(yTrue, yPred)`,
 * reductions ('sum_over_batch_size' = Keras's 'auto', 'sum', 'none') and sample weights, over the
 * engine's cross-entropy. On probabilities they follow TF: the logits of a Keras softmax are used
 * when the prediction carries them, otherwise probabilities are clipped to [1e-7, 1 - 1e-7] first.
 */
import { ops, ShapeError, type Tensor } from '../../../engine';
import { bindArgs, boolArg, describe, optional, asNumber } from '../../args';
import { Callable } from '../callable';
import { kerasLogits } from './activations';
import { toTensor } from './layers/layer';

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

  /** The unreduced loss, one value per sample (Keras's `Loss.call`). */
  abstract call(yTrue: Tensor, yPred: Tensor): Tensor;

  protected invoke(yTrue: unknown, yPred: unknown, sampleWeight?: unknown): Tensor {
    const pred = toTensor(yPred);
    let target = toTensor(yTrue);
    if (target.deviceObject !== pred.deviceObject) target = target.to(pred.deviceObject);
    let losses = this.call(target, pred);
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

/** One-hot (or soft) targets [N, C] against class scores [N, C]: −Σ y·log p. */
export class CategoricalCrossentropy extends Loss {
  readonly fromLogits: boolean;
  readonly labelSmoothing: number;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      {
        name: 'CategoricalCrossentropy',
        params: ['fromLogits', 'labelSmoothing', 'axis', 'reduction', 'name'],
      },
      args,
    );
    super('categorical_crossentropy', a);
    this.fromLogits = boolArg(a.fromLogits, 'CategoricalCrossentropy: fromLogits');
    this.labelSmoothing = optional(
      a.labelSmoothing,
      asNumber,
      'CategoricalCrossentropy: labelSmoothing',
      0,
    );
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return categoricalCrossentropy(yTrue, yPred, this.fromLogits, this.labelSmoothing);
  }
}

export function categoricalCrossentropy(
  yTrue: Tensor,
  yPred: Tensor,
  fromLogits = false,
  labelSmoothing = 0,
): Tensor {
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

/** Binary targets against probabilities (or logits), averaged over the last axis. */
export class BinaryCrossentropy extends Loss {
  readonly fromLogits: boolean;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      {
        name: 'BinaryCrossentropy',
        params: ['fromLogits', 'labelSmoothing', 'axis', 'reduction', 'name'],
      },
      args,
    );
    super('binary_crossentropy', a);
    this.fromLogits = boolArg(a.fromLogits, 'BinaryCrossentropy: fromLogits');
  }

  call(yTrue: Tensor, yPred: Tensor): Tensor {
    return binaryCrossentropy(yTrue, yPred, this.fromLogits);
  }
}

export function binaryCrossentropy(yTrue: Tensor, yPred: Tensor, fromLogits = false): Tensor {
  const y = yTrue.dtype === 'float32' ? yTrue : ops.cast(yTrue, 'float32');
  let perElement: Tensor;
  if (fromLogits) {
    // max(x, 0) − x·y + log(1 + exp(−|x|)): stable for large |x|.
    const x = yPred;
    perElement = ops.add(
      ops.sub(ops.relu(x), ops.mul(x, y)),
      ops.log(ops.add(ops.exp(ops.neg(ops.abs(x))), 1)),
    );
  } else {
    const p = ops.clamp(yPred, EPSILON, 1 - EPSILON);
    perElement = ops.neg(
      ops.add(ops.mul(y, ops.log(p)), ops.mul(ops.sub(1, y), ops.log(ops.sub(1, p)))),
    );
  }
  return ops.mean(perElement, -1);
}

type LossFn = (yTrue: Tensor, yPred: Tensor) => Tensor;

/** Keras's string names for losses (as `compile({ loss: 'sparse_categorical_crossentropy' })`). */
const BY_NAME: Record<string, () => Loss> = {
  sparse_categorical_crossentropy: () => new SparseCategoricalCrossentropy(),
  categorical_crossentropy: () => new CategoricalCrossentropy(),
  binary_crossentropy: () => new BinaryCrossentropy(),
  mean_squared_error: () => new MeanSquaredError(),
  mse: () => new MeanSquaredError(),
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

export const losses = {
  Loss,
  SparseCategoricalCrossentropy,
  CategoricalCrossentropy,
  BinaryCrossentropy,
  MeanSquaredError,
  sparseCategoricalCrossentropy: (yTrue: unknown, yPred: unknown, fromLogits = false): Tensor =>
    sparseCategoricalCrossentropy(toTensor(yTrue), toTensor(yPred), fromLogits),
  categoricalCrossentropy: (yTrue: unknown, yPred: unknown, fromLogits = false): Tensor =>
    categoricalCrossentropy(toTensor(yTrue), toTensor(yPred), fromLogits),
  meanSquaredError: (yTrue: unknown, yPred: unknown): Tensor =>
    meanSquaredError(toTensor(yTrue), toTensor(yPred)),
  mse: (yTrue: unknown, yPred: unknown): Tensor =>
    meanSquaredError(toTensor(yTrue), toTensor(yPred)),
};
