/**
 * `tf.keras.metrics`: Mean, SparseCategoricalAccuracy, SparseTopKCategoricalAccuracy and
 * CategoricalAccuracy under Keras's names (`updateState`, `result`, `resetStates`), wrapping the
 * engine's metric core, whose state stays on the device. `result()` is a 0-d tensor (printing it
 * shows the value; `await m.result().item()` reads it); calling a metric updates it and returns
 * the running result, as Keras's `__call__` does.
 */
import { ops, type Tensor } from '../../../engine';
import {
  AccuracyCore,
  MeanCore,
  notifyMetricRead,
  type Metric as MetricCore,
} from '../../../engine/metrics';
import { asInt, bindArgs, describe, optional } from '../../args';
import { Callable } from '../callable';
import { toSnakeCase, toTensor } from './layers/layer';

// Instances are callable (see callable.ts): the interface gives classes their call signature.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Metric {
  (...args: unknown[]): Tensor;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export abstract class Metric extends Callable<unknown[], Tensor> {
  name: string;
  protected readonly core: MetricCore;

  protected constructor(core: MetricCore, name: unknown, defaultName: string) {
    super();
    this.core = core;
    this.name = name === undefined || name === null ? defaultName : String(name);
  }

  /** Adds a batch to the running state (on the device; nothing is read back). */
  abstract updateState(...args: unknown[]): void;

  /** The running value as a 0-d tensor on the data's device (a read the loop chart hears of). */
  result(): Tensor {
    const value = this.core.resultTensor();
    notifyMetricRead(this.core.readEvent(this.name));
    return value;
  }

  /** The running value without telling anyone: fit's own reads (its chart is its own). */
  valueTensor(): Tensor {
    return this.core.resultTensor();
  }

  /** Starts again from nothing (Keras 2.x name). */
  resetStates(): void {
    this.core.reset();
  }

  /** Keras ≥ 2.5 name of resetStates. */
  resetState(): void {
    this.core.reset();
  }

  protected invoke(...args: unknown[]): Tensor {
    this.updateState(...args);
    return this.valueTensor();
  }

  /** A fresh metric of the same kind and name (compile() copies metrics per output). */
  abstract fresh(): Metric;

  override toString(): string {
    return `<keras.metrics ${this.name}>`;
  }
}

/** The weighted mean of every value given (Keras's `Mean`, used for running losses). */
export class Mean extends Metric {
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'Mean', params: ['name', 'dtype'] }, args);
    super(new MeanCore(), a.name, 'mean');
  }

  updateState(...args: unknown[]): void {
    const a = bindArgs({ name: 'Mean.updateState', params: ['values', 'sampleWeight'] }, args);
    const values = typeof a.values === 'number' ? a.values : toTensor(a.values);
    const weight =
      a.sampleWeight === undefined || a.sampleWeight === null
        ? 1
        : typeof a.sampleWeight === 'number'
          ? a.sampleWeight
          : toTensor(a.sampleWeight);
    (this.core as MeanCore).update(values, weight);
  }

  fresh(): Mean {
    return new Mean({ name: this.name });
  }
}

/** Labels and scores as the accuracy core wants them: [N] labels, [N, C] scores. */
function flattenClasses(yTrue: Tensor, yPred: Tensor): [Tensor, Tensor] {
  let labels = yTrue;
  if (labels.ndim === yPred.ndim && labels.shape[labels.ndim - 1] === 1)
    labels = ops.squeeze(labels, -1);
  if (yPred.ndim > 2) {
    const classes = yPred.shape[yPred.ndim - 1];
    return [ops.reshape(labels, [-1]), ops.reshape(yPred, [-1, classes])];
  }
  return [labels, yPred];
}

abstract class AccuracyMetric extends Metric {
  protected abstract labels(yTrue: Tensor, yPred: Tensor): [Tensor, Tensor];

  updateState(...args: unknown[]): void {
    const a = bindArgs(
      { name: `${this.name}.updateState`, params: ['yTrue', 'yPred', 'sampleWeight'] },
      args,
    );
    if (a.sampleWeight !== undefined && a.sampleWeight !== null) {
      throw new TypeError(`${this.name}.updateState: sampleWeight is not supported`);
    }
    const pred = toTensor(a.yPred);
    let target = toTensor(a.yTrue);
    if (target.deviceObject !== pred.deviceObject) target = target.to(pred.deviceObject);
    const [labels, scores] = this.labels(target, pred);
    (this.core as AccuracyCore).update(scores.detach(), labels);
  }
}

/** How often the largest score is at the integer label. */
export class SparseCategoricalAccuracy extends AccuracyMetric {
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'SparseCategoricalAccuracy', params: ['name', 'dtype'] }, args);
    super(new AccuracyCore(), a.name, 'sparse_categorical_accuracy');
  }

  protected labels(yTrue: Tensor, yPred: Tensor): [Tensor, Tensor] {
    return flattenClasses(yTrue, yPred);
  }

  fresh(): SparseCategoricalAccuracy {
    return new SparseCategoricalAccuracy({ name: this.name });
  }
}

/** How often the integer label is among the k largest scores (ties at the boundary count in). */
export class SparseTopKCategoricalAccuracy extends AccuracyMetric {
  readonly k: number;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      { name: 'SparseTopKCategoricalAccuracy', params: ['k', 'name', 'dtype'] },
      args,
    );
    const k = optional(a.k, asInt, 'SparseTopKCategoricalAccuracy: k', 5);
    super(new AccuracyCore({ topK: k }), a.name, 'sparse_top_k_categorical_accuracy');
    this.k = k;
  }

  protected labels(yTrue: Tensor, yPred: Tensor): [Tensor, Tensor] {
    return flattenClasses(yTrue, yPred);
  }

  fresh(): SparseTopKCategoricalAccuracy {
    return new SparseTopKCategoricalAccuracy({ k: this.k, name: this.name });
  }
}

/** Accuracy against one-hot targets: argmax of the target is the label. */
export class CategoricalAccuracy extends AccuracyMetric {
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'CategoricalAccuracy', params: ['name', 'dtype'] }, args);
    super(new AccuracyCore(), a.name, 'categorical_accuracy');
  }

  protected labels(yTrue: Tensor, yPred: Tensor): [Tensor, Tensor] {
    const classes = yPred.shape[yPred.ndim - 1];
    return [ops.argmax(ops.reshape(yTrue, [-1, classes]), 1), ops.reshape(yPred, [-1, classes])];
  }

  fresh(): CategoricalAccuracy {
    return new CategoricalAccuracy({ name: this.name });
  }
}

/** Metrics other files add under Keras's string names ('auc', 'precision', …). */
const NAMED: Record<string, () => Metric> = {};

export function registerMetricName(name: string, make: () => Metric): void {
  NAMED[name] = make;
}

/**
 * A metric given to compile(): an object, or a Keras name. 'accuracy' / 'acc' picks the accuracy
 * that fits the loss (sparse labels → SparseCategoricalAccuracy), named as written, as Keras does.
 */
export function getMetric(spec: unknown, sparseLabels: boolean): Metric {
  if (spec instanceof Metric) return spec;
  if (typeof spec === 'function') {
    const fn = spec as (yTrue: Tensor, yPred: Tensor) => Tensor;
    return new FunctionMetric(fn, fn.name || 'metric');
  }
  if (typeof spec === 'string') {
    const name = toSnakeCase(spec);
    const registered = NAMED[name] ?? NAMED[spec.toLowerCase()];
    if (registered) return registered();
    if (name === 'accuracy' || name === 'acc') {
      return sparseLabels
        ? new SparseCategoricalAccuracy({ name: spec })
        : new CategoricalAccuracy({ name: spec });
    }
    if (name === 'sparse_categorical_accuracy') return new SparseCategoricalAccuracy();
    if (name === 'sparse_top_k_categorical_accuracy') return new SparseTopKCategoricalAccuracy();
    if (name === 'categorical_accuracy') return new CategoricalAccuracy();
  }
  throw new TypeError(
    `Unknown metric function: ${describe(spec)}; use 'accuracy', a tf.keras.metrics object or a function`,
  );
}

/** A function (yTrue, yPred) → values, averaged over every batch (Keras's MeanMetricWrapper). */
export class FunctionMetric extends Metric {
  constructor(
    private readonly fn: (yTrue: Tensor, yPred: Tensor) => Tensor,
    name: string,
  ) {
    super(new MeanCore(), name, name);
  }

  updateState(...args: unknown[]): void {
    const [yTrue, yPred] = args;
    (this.core as MeanCore).update(this.fn(toTensor(yTrue), toTensor(yPred)).detach());
  }

  fresh(): FunctionMetric {
    return new FunctionMetric(this.fn, this.name);
  }
}

export const metrics = {
  Metric,
  Mean,
  SparseCategoricalAccuracy,
  SparseTopKCategoricalAccuracy,
  CategoricalAccuracy,
};
