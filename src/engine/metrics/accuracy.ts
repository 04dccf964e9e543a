/**
 * Classification accuracy on device: multiclass (top-1 or top-k, micro or macro averaged, as
 * torchmetrics computes them) and binary (thresholded probabilities). Keras's
 * SparseCategoricalAccuracy and SparseTopKCategoricalAccuracy are its micro forms.
 */
import { noGrad } from '../autograd';
import type { Device } from '../devices/device';
import { arange } from '../ops/creation';
import { add, cast, div, eq, ge, gt, lt, maximum, mul, sub } from '../ops/elementwise';
import { checkIndexRange } from '../ops/labels';
import { argmax, sum } from '../ops/reduce';
import { reshape, unsqueeze } from '../ops/shape-ops';
import { scopedAll } from '../ops/support';
import { toDevice } from '../ops/transfer';
import { formatShape, ShapeError } from '../shape';
import { Tensor } from '../tensor';
import { Metric } from './metric';

export interface AccuracyOptions {
  task?: 'multiclass' | 'binary';
  numClasses?: number | null;
  topK?: number;
  /** 'micro' (torchmetrics' Accuracy default): correct / total. 'macro': mean of per-class recalls. */
  average?: 'micro' | 'macro';
  /** Binary task: predictions at or above it count as class 1. */
  threshold?: number;
}

interface BatchStats {
  correct: Tensor;
  count: number;
  tp?: Tensor;
  support?: Tensor;
  predicted?: Tensor;
}

export class AccuracyCore extends Metric {
  declare readonly options: Required<AccuracyOptions>;
  protected override readonly readKind = 'acc';
  private total = 0;
  private readonly classRows = new Map<Device, Tensor>();

  constructor(options: AccuracyOptions = {}) {
    super();
    const task = options.task ?? 'multiclass';
    if (task !== 'multiclass' && task !== 'binary') {
      throw new Error(
        `Accuracy: task '${String(task)}' is not supported (use 'multiclass' or 'binary')`,
      );
    }
    const average = options.average ?? 'micro';
    if (average !== 'micro' && average !== 'macro')
      throw new Error(
        `Accuracy: average '${String(average)}' is not supported (use 'micro' or 'macro')`,
      );
    const numClasses = options.numClasses ?? null;
    if (numClasses !== null && (!Number.isInteger(numClasses) || numClasses < 2)) {
      throw new RangeError(
        `Accuracy: numClasses must be an integer of at least 2, got ${numClasses}`,
      );
    }
    if (average === 'macro' && numClasses === null)
      throw new Error("Accuracy: average 'macro' needs numClasses");
    const topK = options.topK ?? 1;
    if (!Number.isInteger(topK) || topK < 1)
      throw new RangeError(`Accuracy: topK must be a positive integer, got ${topK}`);
    Object.defineProperty(this, 'options', {
      value: { task, numClasses, topK, average, threshold: options.threshold ?? 0.5 },
      enumerable: false,
    });
  }

  clone(): AccuracyCore {
    return new AccuracyCore(this.options);
  }

  /** [1, C] int32 row 0..C-1 on the device, kept for one-hot comparisons. */
  private classRow(device: Device, classes: number): Tensor {
    let row = this.classRows.get(device);
    if (!row || row.shape[1] !== classes) {
      row = reshape(arange(0, classes, 1, { device }), [1, classes]).keep();
      this.classRows.set(device, row);
    }
    return row;
  }

  /** Targets as an int32 vector [N] (accepting [N, 1] and float labels, as Keras does). */
  private labels(preds: Tensor, target: Tensor): Tensor {
    if (!(preds instanceof Tensor) || !(target instanceof Tensor))
      throw new TypeError('Accuracy: preds and target must be Tensors');
    const n = preds.shape[0];
    let y = target;
    if (y.ndim === 2 && y.shape[1] === 1) y = reshape(y, [y.shape[0]]);
    if (y.ndim !== 1 || y.shape[0] !== n) {
      throw new ShapeError(
        `Accuracy: target of shape ${formatShape(target.shape)} does not match preds ${formatShape(preds.shape)}`,
      );
    }
    if (preds.deviceObject !== y.deviceObject) y = toDevice(y, preds.deviceObject);
    return y.dtype === 'int32' ? y : cast(y, 'int32');
  }

  private stats(preds: Tensor, target: Tensor): BatchStats {
    const { task, numClasses, topK, average, threshold } = this.options;
    const y = this.labels(preds, target);
    const n = y.shape[0];
    if (task === 'binary') {
      const hard = preds.dtype === 'int32' ? preds : ge(preds, threshold);
      const correct = sum(cast(eq(reshape(hard, [n]), y), 'float32'));
      return { correct, count: n };
    }
    let correctVec: Tensor;
    let predicted: Tensor | null = null;
    let classes: number;
    if (preds.dtype === 'int32' || preds.ndim === 1) {
      if (topK !== 1)
        throw new Error('Accuracy: topK > 1 needs scores of shape [N, C], not predicted classes');
      if (numClasses === null && average === 'macro')
        throw new Error("Accuracy: average 'macro' needs numClasses");
      classes = numClasses ?? 0;
      const p = cast(reshape(preds, [n]), 'int32');
      correctVec = cast(eq(p, y), 'float32');
      predicted = p;
    } else {
      if (preds.ndim !== 2)
        throw new ShapeError(
          `Accuracy: expected scores of shape [N, C], got ${formatShape(preds.shape)}`,
        );
      classes = preds.shape[1];
      if (numClasses !== null && classes !== numClasses) {
        throw new ShapeError(
          `Accuracy: preds have ${classes} classes ${formatShape(preds.shape)} but numClasses is ${numClasses}`,
        );
      }
      if (topK === 1) {
        const p = argmax(preds, 1);
        correctVec = cast(eq(p, y), 'float32');
        predicted = p;
      } else {
        const onehot = cast(
          eq(unsqueeze(y, 1), this.classRow(preds.deviceObject, classes)),
          'float32',
        );
        const targetScore = sum(mul(preds, onehot), 1, true);
        const above = sum(cast(gt(preds, targetScore), 'float32'), 1);
        correctVec = cast(lt(above, topK), 'float32');
      }
    }
    const limit = numClasses ?? (classes > 0 ? classes : null);
    if (limit !== null) checkIndexRange('Accuracy', 'target', y, limit, 'classes');
    const correct = sum(correctVec);
    if (average === 'micro') return { correct, count: n };
    const row = this.classRow(preds.deviceObject, classes);
    const onehot = cast(eq(unsqueeze(y, 1), row), 'float32');
    const tp = sum(mul(onehot, unsqueeze(correctVec, 1)), 0);
    const support = sum(onehot, 0);
    const predictedCounts = predicted
      ? sum(cast(eq(unsqueeze(predicted, 1), row), 'float32'), 0)
      : tp;
    return { correct, count: n, tp, support, predicted: predictedCounts };
  }

  /** Macro average: mean recall over classes seen in targets or predictions. */
  private static macro(tp: Tensor, support: Tensor, predicted: Tensor): Tensor {
    const recall = div(tp, maximum(support, 1));
    const seen = cast(gt(sub(add(predicted, support), tp), 0), 'float32');
    return div(sum(mul(recall, seen)), maximum(sum(seen), 1));
  }

  update(preds: Tensor, target: Tensor): void {
    this.noteUpdate(preds);
    noGrad(() => {
      scopedAll(() => {
        const s = this.stats(preds, target);
        this.total += s.count;
        this.stateTensors.accumulate('correct', s.correct);
        if (s.tp && s.support && s.predicted) {
          this.stateTensors.accumulate('tp', s.tp);
          this.stateTensors.accumulate('support', s.support);
          this.stateTensors.accumulate('predicted', s.predicted);
        }
        return [];
      });
    });
  }

  protected batchValue(preds: Tensor, target: Tensor): Tensor {
    return noGrad(() => {
      const [value] = scopedAll(() => {
        const s = this.stats(preds, target);
        if (s.tp && s.support && s.predicted)
          return [AccuracyCore.macro(s.tp, s.support, s.predicted)];
        return [div(s.correct, Math.max(s.count, 1))];
      });
      return value;
    });
  }

  resultTensor(): Tensor {
    return noGrad(() => {
      const correct = this.stateTensors.get('correct');
      if (!correct)
        throw new Error(
          'Accuracy: compute() was called before update(); there is nothing to compute',
        );
      const tp = this.stateTensors.get('tp');
      const support = this.stateTensors.get('support');
      const predicted = this.stateTensors.get('predicted');
      if (tp && support && predicted) return AccuracyCore.macro(tp, support, predicted);
      return div(correct, Math.max(this.total, 1));
    });
  }

  protected override resetHost(): void {
    this.total = 0;
  }
}
