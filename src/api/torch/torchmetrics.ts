/**
 * `torchmetrics`: `new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 10 })` and
 * MeanMetric over the engine's metric core (state on the device; `await metric.compute()` reads
 * the number; `metric(preds, target)` updates and returns the batch's value as a tensor).
 */
import { AccuracyCore, MeanCore, type AccuracyOptions } from '../../engine/metrics';
import { bindArgs, describe } from '../args';

const ACCURACY_PARAMS = [
  'task',
  'threshold',
  'numClasses',
  'numLabels',
  'average',
  'multidimAverage',
  'topK',
  'ignoreIndex',
  'validateArgs',
];

export interface TorchAccuracyOptions extends AccuracyOptions {
  numLabels?: number | null;
  multidimAverage?: 'global';
  ignoreIndex?: number | null;
  validateArgs?: boolean;
}

class Accuracy extends AccuracyCore {
  constructor(
    task?: 'multiclass' | 'binary' | TorchAccuracyOptions,
    options?: TorchAccuracyOptions,
  );
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'Accuracy', params: ACCURACY_PARAMS }, args);
    if (a.task === undefined)
      throw new TypeError(
        "Accuracy: give a task, e.g. new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 10 })",
      );
    if (a.task === 'multilabel')
      throw new Error("Accuracy: task 'multilabel' is not supported yet");
    if (a.task === 'multiclass' && (a.numClasses === undefined || a.numClasses === null)) {
      throw new TypeError(
        `Accuracy: task 'multiclass' needs numClasses, got ${describe(a.numClasses)}`,
      );
    }
    for (const key of ['ignoreIndex', 'numLabels']) {
      if (a[key] !== undefined && a[key] !== null)
        throw new Error(`Accuracy: ${key} is not supported yet`);
    }
    super({
      task: a.task as AccuracyOptions['task'],
      numClasses: (a.numClasses as number | undefined) ?? null,
      topK: a.topK as number | undefined,
      average: a.average as AccuracyOptions['average'],
      threshold: a.threshold as number | undefined,
    });
  }

  override clone(): Accuracy {
    return new Accuracy({ ...this.options });
  }
}

class MeanMetric extends MeanCore {
  override clone(): MeanMetric {
    return new MeanMetric();
  }
}

export const torchmetrics = { Accuracy, MeanMetric };
