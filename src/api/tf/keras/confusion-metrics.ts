/**
 * `tf.keras.metrics.AUC`, `Precision` and `Recall`: Keras's confusion-matrix metrics. True and
 * false positives and negatives are counted per threshold on the data's device (a prediction is
 * positive when strictly above the threshold; a label is positive when non-zero; predictions and
 * labels are flattened, as Keras does without `multi_label`), and results are computed there
 * from the counts with Keras's formulas (its Riemann sums, and its interpolated PR-AUC).
 */
import { defaultDevice, noGrad, ops, type Tensor } from '../../../engine';
import { Metric as MetricCore } from '../../../engine/metrics';
import { scopedAll } from '../../../engine/ops/support';
import { asBool, asInt, asNumber, bindArgs, describe, optional, type BoundArgs } from '../../args';
import { ValueError } from '../../tf-config';
import { toTensor } from './layers/layer';
import { Metric, registerMetricName } from './metrics';
import { uniqueName } from './naming';

/** Keras's backend epsilon, which widens AUC's end thresholds. */
const EPSILON = 1e-7;
type Counts = { tp: Tensor; fp: Tensor; tn: Tensor; fn: Tensor };

/** The four counts per threshold, as kept tensors; the result is derived from them by `formula`. */
class ConfusionCore extends MetricCore {
  protected override readonly readKind = 'confusion';

  constructor(
    readonly thresholds: readonly number[],
    private readonly formula: (c: Counts) => Tensor,
  ) {
    super();
  }

  clone(): ConfusionCore {
    return new ConfusionCore(this.thresholds, this.formula);
  }

  /** Flat predictions, flat labels (positive when non-zero) and optional flat weights. */
  update(preds: Tensor, labels: Tensor, weights: Tensor | null): void {
    this.noteUpdate(preds);
    noGrad(() =>
      scopedAll(() => {
        const device = preds.deviceObject;
        const thresholds = ops.fromData([this.thresholds], { device });
        const predPos = ops.cast(ops.gt(ops.unsqueeze(preds, 1), thresholds), 'float32');
        const predNeg = ops.sub(1, predPos);
        let pos = ops.unsqueeze(ops.cast(ops.ne(labels, 0), 'float32'), 1);
        let neg = ops.sub(1, pos);
        if (weights) {
          const w = ops.unsqueeze(weights, 1);
          pos = ops.mul(pos, w);
          neg = ops.mul(neg, w);
        }
        this.stateTensors.accumulate('tp', ops.sum(ops.mul(predPos, pos), 0));
        this.stateTensors.accumulate('fp', ops.sum(ops.mul(predPos, neg), 0));
        this.stateTensors.accumulate('fn', ops.sum(ops.mul(predNeg, pos), 0));
        this.stateTensors.accumulate('tn', ops.sum(ops.mul(predNeg, neg), 0));
        return [];
      }),
    );
  }

  protected batchValue(): Tensor {
    throw new Error('confusion metrics are updated through updateState');
  }

  counts(): Counts {
    const get = (name: string): Tensor =>
      this.stateTensors.get(name) ??
      ops.fromData(new Array<number>(this.thresholds.length).fill(0), {
        device: defaultDevice('tf'),
      });
    return { tp: get('tp'), fp: get('fp'), tn: get('tn'), fn: get('fn') };
  }

  resultTensor(): Tensor {
    return noGrad(() => scopedAll(() => [this.formula(this.counts())])[0]);
  }
}

/** tf.math.divide_no_nan: a / b, and 0 where b is 0. */
function divNoNan(a: Tensor, b: Tensor): Tensor {
  const zero = ops.eq(b, 0);
  return ops.where(zero, 0, ops.div(a, ops.where(zero, 1, b)));
}

const head = (x: Tensor): Tensor => ops.narrow(x, 0, 0, x.shape[0] - 1);
const tail = (x: Tensor): Tensor => ops.narrow(x, 0, 1, x.shape[0] - 1);

type Curve = 'ROC' | 'PR';
type Summation = 'interpolation' | 'minoring' | 'majoring';

/** Keras's AUC.result: a Riemann sum over the thresholds, or the interpolated PR-AUC. */
function aucFormula(curve: Curve, summation: Summation): (c: Counts) => Tensor {
  return ({ tp, fp, tn, fn }) => {
    if (curve === 'PR' && summation === 'interpolation') {
      // Davis & Goadrich's interpolation, in Keras's closed form.
      const dtp = ops.sub(head(tp), tail(tp));
      const p = ops.add(tp, fp);
      const dp = ops.sub(head(p), tail(p));
      const slope = divNoNan(dtp, ops.relu(dp));
      const intercept = ops.sub(tail(tp), ops.mul(slope, tail(p)));
      const bothPositive = ops.gt(ops.minimum(head(p), tail(p)), 0);
      const ratio = ops.where(bothPositive, divNoNan(head(p), ops.relu(tail(p))), 1);
      const increment = divNoNan(
        ops.mul(slope, ops.add(dtp, ops.mul(intercept, ops.log(ratio)))),
        ops.relu(ops.add(tail(tp), tail(fn))),
      );
      return ops.sum(increment);
    }
    const recall = divNoNan(tp, ops.add(tp, fn));
    const [x, y] =
      curve === 'ROC'
        ? [divNoNan(fp, ops.add(fp, tn)), recall]
        : [recall, divNoNan(tp, ops.add(tp, fp))];
    const heights =
      summation === 'interpolation'
        ? ops.mul(ops.add(head(y), tail(y)), 0.5)
        : summation === 'minoring'
          ? ops.minimum(head(y), tail(y))
          : ops.maximum(head(y), tail(y));
    return ops.sum(ops.mul(ops.sub(head(x), tail(x)), heights));
  };
}

function nameOf(a: BoundArgs, base: string): string {
  return a.name === undefined || a.name === null ? uniqueName(base) : String(a.name);
}

/** Keras's update for the confusion metrics: flattened, optionally top-k filtered or one class. */
abstract class ConfusionMetric extends Metric {
  protected constructor(
    core: ConfusionCore,
    name: string,
    readonly topK: number | null = null,
    readonly classId: number | null = null,
    private readonly fromLogits = false,
  ) {
    super(core, name, name);
  }

  updateState(...args: unknown[]): void {
    const a = bindArgs(
      { name: `${this.name}.updateState`, params: ['yTrue', 'yPred', 'sampleWeight'] },
      args,
    );
    let pred = toTensor(a.yPred).detach();
    let target = toTensor(a.yTrue);
    if (target.deviceObject !== pred.deviceObject) target = target.to(pred.deviceObject);
    if (pred.dtype !== 'float32') pred = ops.cast(pred, 'float32');
    if (target.ndim === pred.ndim - 1 && pred.shape[pred.ndim - 1] === 1)
      pred = ops.squeeze(pred, -1);
    else if (pred.ndim === target.ndim - 1 && target.shape[target.ndim - 1] === 1)
      target = ops.squeeze(target, -1);
    if (target.shape.join() !== pred.shape.join())
      throw new ValueError(
        `${this.name}: y_true of shape ${JSON.stringify(target.shape)} and y_pred of shape ${JSON.stringify(pred.shape)} are incompatible`,
      );
    let weight: Tensor | null = null;
    if (a.sampleWeight !== undefined && a.sampleWeight !== null) {
      weight = ops.cast(toTensor(a.sampleWeight), 'float32');
      if (weight.deviceObject !== pred.deviceObject) weight = weight.to(pred.deviceObject);
      weight = ops.expand(
        weight.ndim < pred.ndim
          ? ops.reshape(weight, [...weight.shape, ...pred.shape.slice(weight.ndim).map(() => 1)])
          : weight,
        pred.shape,
      );
    }
    if (this.fromLogits) pred = ops.sigmoid(pred);
    if (this.topK !== null) {
      // Keras's _filter_top_k: everything but the k largest of the last axis becomes −∞.
      const k = Math.min(this.topK, pred.shape[pred.ndim - 1]);
      const [, indices] = ops.topk(pred, k, -1);
      const keep = ops.scatter(ops.fullLike(pred, 0), -1, indices, 1);
      pred = ops.where(ops.gt(keep, 0), pred, -Infinity);
    }
    if (this.classId !== null) {
      const classes = pred.shape[pred.ndim - 1];
      if (this.classId < 0 || this.classId >= classes)
        throw new ValueError(
          `${this.name}: class_id ${this.classId} is out of range for ${classes} classes`,
        );
      pred = ops.narrow(pred, -1, this.classId, 1);
      target = ops.narrow(target, -1, this.classId, 1);
      if (weight) weight = ops.narrow(weight, -1, this.classId, 1);
    }
    (this.core as ConfusionCore).update(
      ops.reshape(pred, [-1]),
      ops.reshape(target, [-1]),
      weight && ops.reshape(weight, [-1]),
    );
  }
}

/** Thresholds as Keras takes them: one number, a list, or (null) the default. */
function thresholdList(value: unknown, fallback: number, what: string): number[] {
  if (value === undefined || value === null) return [fallback];
  const list = Array.isArray(value) ? value : [value];
  return list.map((t, i) => {
    const n = asNumber(t, `${what}: thresholds[${i}]`);
    if (!(n >= 0 && n <= 1))
      throw new ValueError(`Threshold values must be in [0, 1]. Received: ${describe(value)}`);
    return n;
  });
}

/** Shared by Precision and Recall: tp / (tp + fp) or tp / (tp + fn), per threshold. */
abstract class RateMetric extends ConfusionMetric {
  protected constructor(
    what: 'Precision' | 'Recall',
    args: readonly unknown[],
    formula: (c: Counts) => Tensor,
  ) {
    const a = bindArgs(
      { name: what, params: ['thresholds', 'topK', 'classId', 'name', 'dtype'] },
      args,
    );
    const topK = optional(a.topK, asInt, `${what}: topK`, null);
    const classId = optional(a.classId, asInt, `${what}: classId`, null);
    // Keras's default threshold is 0.5, or −∞ with top_k (the top k count as positive).
    const thresholds = thresholdList(a.thresholds, topK === null ? 0.5 : -Infinity, what);
    const single = thresholds.length === 1;
    const core = new ConfusionCore(thresholds, (c) => {
      const r = formula(c);
      return single ? ops.reshape(r, []) : r;
    });
    super(core, nameOf(a, what.toLowerCase()), topK, classId);
    this.thresholdsGiven = a.thresholds ?? null;
  }

  protected readonly thresholdsGiven: unknown;

  get thresholds(): number[] {
    return [...(this.core as ConfusionCore).thresholds];
  }
}

/** tp / (tp + fp) at each threshold (0 where nothing was predicted positive). */
export class Precision extends RateMetric {
  constructor(...args: unknown[]) {
    super('Precision', args, ({ tp, fp }) => divNoNan(tp, ops.add(tp, fp)));
  }

  fresh(): Precision {
    return new Precision({
      thresholds: this.thresholdsGiven,
      topK: this.topK,
      classId: this.classId,
      name: this.name,
    });
  }
}

/** tp / (tp + fn) at each threshold (0 where there were no positive labels). */
export class Recall extends RateMetric {
  constructor(...args: unknown[]) {
    super('Recall', args, ({ tp, fn }) => divNoNan(tp, ops.add(tp, fn)));
  }

  fresh(): Recall {
    return new Recall({
      thresholds: this.thresholdsGiven,
      topK: this.topK,
      classId: this.classId,
      name: this.name,
    });
  }
}

/**
 * AUC(numThresholds = 200, curve = 'ROC', summationMethod = 'interpolation', name, dtype,
 * thresholds, multiLabel = false, numLabels, labelWeights, fromLogits = false).
 */
export class AUC extends ConfusionMetric {
  readonly numThresholds: number;
  readonly curve: Curve;
  readonly summationMethod: Summation;
  private readonly args: BoundArgs;

  constructor(...args: unknown[]) {
    const what = 'AUC';
    const a = bindArgs(
      {
        name: what,
        params: [
          'numThresholds',
          'curve',
          'summationMethod',
          'name',
          'dtype',
          'thresholds',
          'multiLabel',
          'numLabels',
          'labelWeights',
          'fromLogits',
        ],
      },
      args,
    );
    if (optional(a.multiLabel, asBool, `${what}: multiLabel`, false))
      throw new TypeError('AUC: multiLabel=True is not supported');
    if (a.labelWeights !== undefined && a.labelWeights !== null)
      throw new TypeError('AUC: labelWeights is not supported');
    const curve = String(a.curve ?? 'ROC').toUpperCase();
    if (curve !== 'ROC' && curve !== 'PR')
      throw new ValueError(
        `Invalid AUC curve value: "${String(a.curve)}". Expected values are ["ROC", "PR"]`,
      );
    const summation = String(a.summationMethod ?? 'interpolation').toLowerCase();
    if (summation !== 'interpolation' && summation !== 'minoring' && summation !== 'majoring')
      throw new ValueError(
        `Invalid AUC summation method value: "${String(a.summationMethod)}". Expected values are ["interpolation", "majoring", "minoring"]`,
      );
    let inner: number[];
    if (a.thresholds !== undefined && a.thresholds !== null) {
      inner = thresholdList(a.thresholds, 0.5, what);
    } else {
      const n = optional(a.numThresholds, asInt, `${what}: numThresholds`, 200);
      if (n <= 1)
        throw new ValueError(
          `Argument \`num_thresholds\` must be an integer > 1. Received: num_thresholds=${n}`,
        );
      inner = Array.from({ length: n - 2 }, (_, i) => (i + 1) / (n - 1));
    }
    const thresholds = [0 - EPSILON, ...inner, 1 + EPSILON];
    const core = new ConfusionCore(thresholds, aucFormula(curve, summation));
    super(
      core,
      nameOf(a, 'auc'),
      null,
      null,
      optional(a.fromLogits, asBool, `${what}: fromLogits`, false),
    );
    this.numThresholds = thresholds.length;
    this.curve = curve;
    this.summationMethod = summation;
    this.args = { ...a, name: this.name };
  }

  get thresholds(): number[] {
    return [...(this.core as ConfusionCore).thresholds];
  }

  fresh(): AUC {
    return new AUC(this.args);
  }
}

registerMetricName('auc', () => new AUC());
registerMetricName('precision', () => new Precision());
registerMetricName('recall', () => new Recall());

export const confusionMetrics = { AUC, Precision, Recall };
