/**
 * PyTorch's losses with their options (torch.nn.functional's nll_loss, cross_entropy,
 * binary_cross_entropy[_with_logits], smooth_l1_loss, huber_loss, kl_div, l1_loss), composed of
 * engine ops, so they run on every backend and autograd derives their gradients; cross-entropy
 * keeps the fused softmax cross-entropy kernel for its per-row term. Class targets are picked with
 * a one-hot mask (labels == arange(C)), so an ignored label (ignore_index) picks nothing.
 */
import { noGrad, presentAs, withGrad } from '../autograd';
import { formatShape, shapesEqual, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { arange } from './creation';
import {
  abs,
  add,
  cast,
  div,
  eq,
  exp,
  gt,
  log,
  lt,
  maximum,
  mul,
  ne,
  neg,
  sub,
  unaryOps,
} from './elementwise';
import { checkIndexRange } from './labels';
import { fusedCrossEntropy, logSoftmax, type Reduction } from './nn';
import { mean, sum } from './reduce';
import { indexSelectRows, movedim, reshape } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

export type KlReduction = Reduction | 'batchmean';

function reduceLoss(op: string, losses: Tensor, reduction: Reduction): Tensor {
  if (reduction === 'mean') return mean(losses);
  if (reduction === 'sum') return sum(losses);
  if (reduction === 'none') return losses;
  throw new TypeError(
    `${op}: reduction must be 'mean', 'sum' or 'none', got ${JSON.stringify(reduction)}`,
  );
}

function requireSameShape(op: string, input: Tensor, target: Tensor): void {
  if (!shapesEqual(input.shape, target.shape))
    throw new ShapeError(
      `${op}: target size ${formatShape(target.shape)} must be the same as input size ` +
        `${formatShape(input.shape)}`,
    );
}

// ---------------------------------------------------------------------------------------------
// Class targets: nll_loss and cross_entropy.

export interface ClassLossOptions {
  /** A weight per class, [C]. */
  weight?: Tensor | null;
  ignoreIndex?: number;
  reduction?: Reduction;
}

export interface CrossEntropyOptions extends ClassLossOptions {
  labelSmoothing?: number;
}

/** Scores [N, C, d1, …] (or [C]) as rows [R, C], and class labels [N, d1, …] (or []) as [R]. */
interface ClassRows {
  rows: Tensor;
  labels: Tensor;
  /** The per-sample losses' shape: the labels'. */
  shape: number[];
  classes: number;
}

function classRows(op: string, input: Tensor, target: Tensor): ClassRows {
  requireFloat(op, input);
  if (input.ndim < 1) throw new ShapeError(`${op}: input must have a class dimension`);
  const scores = input.ndim === 1 ? reshape(input, [1, input.shape[0]]) : input;
  const classes = scores.shape[1];
  const shape = input.ndim === 1 ? [] : [scores.shape[0], ...scores.shape.slice(2)];
  if (!shapesEqual(target.shape, shape)) {
    // The common slip: labels of shape [N, 1] for logits [N, C].
    const squeeze = shapesEqual(target.shape, [...shape, 1])
      ? `; use target.squeeze(${shape.length}) or target.view(-1)`
      : '';
    throw new ShapeError(
      `${op}: expected target of shape ${formatShape(shape)} (class indices) for input ` +
        `${formatShape(input.shape)}, got ${formatShape(target.shape)}${squeeze}`,
    );
  }
  const rows = reshape(movedim(scores, 1, scores.ndim - 1), [-1, classes]);
  // JS has no int literals: float labels such as torch.tensor([0, 2, 1]) are accepted as ints.
  return { rows, labels: reshape(cast(target, 'int32'), [-1]), shape, classes };
}

function checkWeight(op: string, weight: Tensor | null, classes: number): void {
  if (weight !== null && !shapesEqual(weight.shape, [classes]))
    throw new ShapeError(
      `${op}: weight of shape ${formatShape(weight.shape)} does not match ${classes} classes ` +
        `(expected ${formatShape([classes])})`,
    );
}

/**
 * The rows' labels made safe (ignored ones become 0, after checking the rest are classes), and
 * each row's weight [R]: weight[label], 0 for an ignored row.
 */
function keptClasses(
  op: string,
  { labels, classes }: ClassRows,
  weight: Tensor | null,
  ignoreIndex: number,
): { safe: Tensor; rowWeight: Tensor } {
  const kept = ne(labels, ignoreIndex);
  const safe = mul(labels, kept);
  checkIndexRange(op, 'label', safe, classes, 'classes');
  const keptF = cast(kept, 'float32');
  if (weight === null) return { safe, rowWeight: keptF };
  const picked = reshape(indexSelectRows(reshape(weight, [classes, 1]), safe), [-1]);
  return { safe, rowWeight: mul(picked, keptF) };
}

/** [R, C]: 1 at each row's label. */
function oneHotRows(safe: Tensor, classes: number): Tensor {
  const columns = arange(0, classes, 1, { device: safe.deviceObject, dtype: 'int32' });
  return cast(eq(reshape(safe, [-1, 1]), reshape(columns, [1, classes])), 'float32');
}

/** PyTorch's weighted mean: the sum over the sum of the kept rows' weights. */
function reduceWeighted(losses: Tensor, rowWeight: Tensor, reduction: Reduction, shape: number[]) {
  if (reduction === 'mean') return div(sum(losses), sum(rowWeight));
  return reduceLoss('loss', reshape(losses, shape), reduction);
}

/** Negative log-likelihood of log-probabilities [N, C, …] at class labels [N, …]. */
export function nllLoss(input: Tensor, target: Tensor, options: ClassLossOptions = {}): Tensor {
  const op = 'nll_loss';
  inputsDevice(op, input, target);
  const weight = options.weight ?? null;
  return scoped(() => {
    const classRowsOf = classRows(op, input, target);
    checkWeight(op, weight, classRowsOf.classes);
    const { safe, rowWeight } = keptClasses(op, classRowsOf, weight, options.ignoreIndex ?? -100);
    const picked = sum(mul(classRowsOf.rows, oneHotRows(safe, classRowsOf.classes)), 1);
    const losses = neg(mul(picked, rowWeight));
    const reduced = reduceWeighted(
      losses,
      rowWeight,
      options.reduction ?? 'mean',
      classRowsOf.shape,
    );
    return presentAs(reduced, 'NllLossBackward0');
  });
}

/**
 * Cross-entropy of logits [N, C, …] against class labels [N, …] (weight, ignore_index,
 * label_smoothing as PyTorch), or against class probabilities of the logits' shape.
 */
export function crossEntropyLoss(
  input: Tensor,
  target: Tensor,
  options: CrossEntropyOptions = {},
): Tensor {
  const op = 'cross_entropy';
  inputsDevice(op, input, target);
  const weight = options.weight ?? null;
  const smoothing = options.labelSmoothing ?? 0;
  const reduction = options.reduction ?? 'mean';
  if (!(smoothing >= 0 && smoothing <= 1))
    throw new RangeError(`${op}: label_smoothing must be between 0.0 and 1.0, got ${smoothing}`);
  if (target.dtype === 'float32' && shapesEqual(target.shape, input.shape) && input.ndim >= 1)
    return probabilityCrossEntropy(input, target, weight, smoothing, reduction);
  return scoped(() => {
    const c = classRows(op, input, target);
    checkWeight(op, weight, c.classes);
    const ignoreIndex = options.ignoreIndex ?? -100;
    // PyTorch's cross_entropy is log_softmax then nll_loss: its grad_fn is NllLossBackward0.
    if (weight === null && smoothing === 0 && ignoreIndex === KERNEL_IGNORES)
      return presentAs(plainCrossEntropy(c, reduction), 'NllLossBackward0');
    const { safe, rowWeight } = keptClasses(op, c, weight, ignoreIndex);
    const losses = mul(fusedCrossEntropy(c.rows, safe), rowWeight);
    const nll = reduceWeighted(losses, rowWeight, reduction, c.shape);
    if (smoothing === 0) return presentAs(nll, 'NllLossBackward0');
    // PyTorch's: (1 − ε)·nll + ε/C · Σ_c −w_c·log p_c, masked and reduced as nll is.
    const logp = logSoftmax(c.rows, 1);
    const perClass = weight === null ? logp : mul(logp, weight);
    const kept = cast(ne(c.labels, options.ignoreIndex ?? -100), 'float32');
    const smooth = mul(neg(sum(perClass, 1)), kept);
    const smoothReduced = reduceWeighted(smooth, rowWeight, reduction, c.shape);
    return add(mul(nll, 1 - smoothing), mul(smoothReduced, smoothing / c.classes));
  });
}

/**
 * The fused kernel gives label -100 (PyTorch's default ignore_index) loss 0 and gradient 0, so
 * the plain case needs no masking: only the mean counts the kept rows.
 */
const KERNEL_IGNORES = -100;

function plainCrossEntropy(c: ClassRows, reduction: Reduction): Tensor {
  const op = 'cross_entropy';
  const ignoredRows = checkLabels(op, c.labels, c.classes, KERNEL_IGNORES);
  const losses = fusedCrossEntropy(c.rows, c.labels);
  if (reduction !== 'mean') return reduceLoss(op, reshape(losses, c.shape), reduction);
  // Where the labels were read (the cpu), the kept rows are counted already.
  if (ignoredRows === 0) return mean(losses);
  return div(sum(losses), sum(cast(ne(c.labels, KERNEL_IGNORES), 'float32')));
}

/**
 * checkIndexRange's check (where the values can be read at once), letting `ignored` pass: the
 * number of ignored labels, or null where the values could not be read.
 */
function checkLabels(op: string, labels: Tensor, classes: number, ignored: number): number | null {
  const reader = labels.deviceObject.capability('syncRead');
  const n = labels.numel();
  if (!reader || n === 0 || !labels.isContiguous()) return null;
  const values = reader.readSync(labels.res.storage.buffer, 'int32', labels.offset, n);
  if (values === null) return null;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === ignored) count++;
    else if (v < 0 || v >= classes)
      throw new RangeError(
        `${op}: label ${v} at position ${i} is out of range for ${classes} classes ` +
          `(expected 0 to ${classes - 1}, or ${ignored} to ignore)`,
      );
  }
  return count;
}

function probabilityCrossEntropy(
  input: Tensor,
  target: Tensor,
  weight: Tensor | null,
  smoothing: number,
  reduction: Reduction,
): Tensor {
  const op = 'cross_entropy';
  requireFloat(op, input);
  return scoped(() => {
    const scores = input.ndim === 1 ? reshape(input, [1, input.shape[0]]) : input;
    const classes = scores.shape[1];
    checkWeight(op, weight, classes);
    const probs = input.ndim === 1 ? reshape(target, scores.shape) : target;
    const smoothed = smoothing > 0 ? add(mul(probs, 1 - smoothing), smoothing / classes) : probs;
    // The weight along dim 1: [C, 1, …, 1].
    const weightAlong =
      weight === null ? null : reshape(weight, [classes, ...scores.shape.slice(2).map(() => 1)]);
    const terms = mul(logSoftmax(scores, 1), smoothed);
    const perSample = neg(sum(weightAlong === null ? terms : mul(terms, weightAlong), 1));
    const losses = input.ndim === 1 ? reshape(perSample, []) : perSample;
    return reduceLoss(op, losses, reduction);
  });
}

// ---------------------------------------------------------------------------------------------
// Binary targets.

/**
 * max(log v, -100), and -100 at v = 0 itself: WGSL's log(0) is undefined (SwiftShader gives a
 * finite value), so zeros take -100 without reaching the log.
 */
function clampedLog(v: Tensor): Tensor {
  const positive = cast(gt(v, 0), 'float32');
  const safe = log(add(mul(v, positive), sub(1, positive)));
  return add(mul(maximum(safe, -100), positive), mul(sub(1, positive), -100));
}

/**
 * Binary cross-entropy of probabilities: −w·(t·log x + (1 − t)·log(1 − x)), each log clamped at
 * −100 as PyTorch's. Its gradient is PyTorch's, w·(x − t)/max(x(1 − x), 1e-12), finite at 0 and 1.
 */
export function binaryCrossEntropy(
  input: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  reduction: Reduction = 'mean',
): Tensor {
  const op = 'binary_cross_entropy';
  inputsDevice(op, input, target);
  requireFloat(op, input);
  requireSameShape(op, input, target);
  return scoped(() => {
    const losses = noGrad(() => {
      const logX = clampedLog(input);
      const log1mX = clampedLog(sub(1, input));
      const nll = neg(add(mul(target, logX), mul(sub(1, target), log1mX)));
      return weight === null ? nll : mul(nll, weight);
    });
    const attached = withGrad('BinaryCrossEntropyBackward0', [input], losses, (save) => {
      const x = save(input);
      const t = save(target);
      const w = weight === null ? null : save(weight);
      return (g) => {
        const grad = div(mul(g, sub(x, t)), maximum(mul(x, sub(1, x)), 1e-12));
        return [w === null ? grad : mul(grad, w)];
      };
    });
    return presentAs(reduceLoss(op, attached, reduction), 'BinaryCrossEntropyBackward0');
  });
}

/**
 * Binary cross-entropy of logits, in PyTorch's stable form: (1 − t)·x + l·softplus(−x) with
 * l = 1 + (pos_weight − 1)·t (pos_weight broadcasts along the last dim), times weight.
 */
export function binaryCrossEntropyWithLogits(
  input: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  posWeight: Tensor | null = null,
  reduction: Reduction = 'mean',
): Tensor {
  const op = 'binary_cross_entropy_with_logits';
  inputsDevice(op, input, target);
  requireFloat(op, input);
  requireSameShape(op, input, target);
  return scoped(() => {
    const logWeight = posWeight === null ? 1 : add(mul(sub(posWeight, 1), target), 1);
    const softplusNeg = unaryOps.softplus(neg(input));
    let losses = add(mul(sub(1, target), input), mul(logWeight, softplusNeg));
    if (weight !== null) losses = mul(losses, weight);
    return presentAs(reduceLoss(op, losses, reduction), 'BinaryCrossEntropyWithLogitsBackward0');
  });
}

// ---------------------------------------------------------------------------------------------
// Regression.

function difference(op: string, input: Tensor, target: Tensor): Tensor {
  inputsDevice(op, input, target);
  requireFloat(op, input);
  return sub(input, target);
}

/** Mean absolute error (inputs broadcast, as in PyTorch). */
export function l1Loss(input: Tensor, target: Tensor, reduction: Reduction = 'mean'): Tensor {
  return scoped(() => reduceLoss('l1_loss', abs(difference('l1_loss', input, target)), reduction));
}

/**
 * Quadratic below `threshold`, linear above: d²·quadScale/2 where |d| < threshold, else
 * linearScale·(|d| − threshold/2). smooth_l1 is (1/β, 1), huber is (1, δ).
 */
function piecewise(d: Tensor, threshold: number, quadScale: number, linearScale: number): Tensor {
  const a = abs(d);
  const small = cast(lt(a, threshold), 'float32');
  const quadratic = mul(mul(d, d), 0.5 * quadScale);
  const linear = mul(sub(a, 0.5 * threshold), linearScale);
  return add(mul(small, quadratic), mul(sub(1, small), linear));
}

/** PyTorch's smooth_l1_loss: 0.5·d²/β where |d| < β, else |d| − β/2 (plain L1 for β = 0). */
export function smoothL1Loss(
  input: Tensor,
  target: Tensor,
  reduction: Reduction = 'mean',
  beta = 1,
): Tensor {
  const op = 'smooth_l1_loss';
  if (!(beta >= 0)) throw new RangeError(`${op}: beta must be non-negative, got ${beta}`);
  return scoped(() => {
    const d = difference(op, input, target);
    const losses = beta === 0 ? abs(d) : piecewise(d, beta, 1 / beta, 1);
    return presentAs(reduceLoss(op, losses, reduction), 'SmoothL1LossBackward0');
  });
}

/** PyTorch's huber_loss: 0.5·d² where |d| < δ, else δ·(|d| − δ/2). */
export function huberLoss(
  input: Tensor,
  target: Tensor,
  reduction: Reduction = 'mean',
  delta = 1,
): Tensor {
  const op = 'huber_loss';
  if (!(delta > 0)) throw new RangeError(`${op}: delta must be positive, got ${delta}`);
  return scoped(() =>
    presentAs(
      reduceLoss(op, piecewise(difference(op, input, target), delta, 1, delta), reduction),
      'HuberLossBackward0',
    ),
  );
}

/**
 * Kullback-Leibler divergence of log-probabilities `input` from `target` (probabilities, or
 * log-probabilities with logTarget): t·(log t − x), 0 where t = 0 (PyTorch's xlogy).
 * 'batchmean' divides the sum by the batch size (input.shape[0]); 'mean' by the element count.
 */
export function klDiv(
  input: Tensor,
  target: Tensor,
  reduction: KlReduction = 'mean',
  logTarget = false,
): Tensor {
  const op = 'kl_div';
  inputsDevice(op, input, target);
  requireFloat(op, input);
  return scoped(() => {
    let losses: Tensor;
    if (logTarget) losses = mul(exp(target), sub(target, input));
    else {
      // log(t) where t > 0 and log(1) = 0 elsewhere, so t·log t is 0 at t = 0 without 0·(−∞).
      const positive = cast(gt(target, 0), 'float32');
      const safeLog = log(add(mul(target, positive), sub(1, positive)));
      losses = mul(target, sub(safeLog, input));
    }
    if (reduction === 'batchmean')
      return input.ndim === 0 ? sum(losses) : div(sum(losses), input.shape[0]);
    return reduceLoss(op, losses, reduction);
  });
}
