/**
 * Neural-network ops: softmax and logSoftmax along a dim, cross-entropy with integer labels, mean
 * squared error, dropout and embedding lookup. Only the row-softmax and the label gather/scatter are
 * kernels; the rest is composed from other ops, so gradients come for free.
 */
import { needsGrad, presentAs, withGrad } from '../autograd';
import { formatShape, normalizeDim, numel, shapesEqual, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { random } from './creation';
import { cast, exp, mul, neg, square, step, sub } from './elementwise';
import { checkIndexRange } from './labels';
import { mean, sum } from './reduce';
import { fillInto } from './inplace';
import { indexAddRows, indexSelectRows, movedim, narrow, reshape } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped } from './support';

// ---------------------------------------------------------------------------------------------
// Softmax.

/** Row-wise softmax (or log-softmax) of a 2-D tensor [rows, cols]. */
function softmaxRows(x: Tensor, log: boolean): Tensor {
  const device = inputsDevice(log ? 'logSoftmax' : 'softmax', x);
  const out = emptyTensor(device, 'float32', x.shape);
  if (out.numel() > 0) device.backend.softmax(kernelView(x), kernelView(out), log);
  return withGrad(log ? 'LogSoftmaxBackward0' : 'SoftmaxBackward0', [x], out, (save) => {
    const y = save(out);
    return log
      ? (g) => [sub(g, mul(exp(y), sum(g, 1, true)))]
      : (g) => [mul(y, sub(g, sum(mul(g, y), 1, true)))];
  });
}

function alongDim(x: Tensor, dim: number, log: boolean): Tensor {
  const op = log ? 'logSoftmax' : 'softmax';
  requireFloat(op, x);
  if (x.ndim === 0) return scoped(() => reshape(softmaxRows(reshape(x, [1, 1]), log), []));
  const d = normalizeDim(dim, x.ndim, op);
  const last = x.ndim - 1;
  return scoped(() => {
    const moved = d === last ? x : movedim(x, d, last);
    const cols = moved.shape[last];
    const rows = softmaxRows(reshape(moved, [numel(moved.shape) / Math.max(cols, 1), cols]), log);
    const back = reshape(rows, moved.shape);
    return d === last ? back : movedim(back, last, d);
  });
}

export const softmax = (x: Tensor, dim: number): Tensor => alongDim(x, dim, false);
export const logSoftmax = (x: Tensor, dim: number): Tensor => alongDim(x, dim, true);

// ---------------------------------------------------------------------------------------------
// Cross-entropy.

/** out[r] = x[r, index[r]]. */
function gatherColumns(x: Tensor, index: Tensor): Tensor {
  const device = inputsDevice('gather', x, index);
  const [rows, cols] = x.shape;
  const out = emptyTensor(device, x.dtype, [rows]);
  if (rows > 0) device.backend.gatherColumns(kernelView(x), kernelView(index), kernelView(out));
  return withGrad('GatherBackward0', [x, index], out, (save) => {
    const idx = save(index);
    return (g) => [scatterColumns(g, idx, cols), null];
  });
}

/** out[r, c] = c == index[r] ? values[r] : 0. */
function scatterColumns(values: Tensor, index: Tensor, cols: number): Tensor {
  const device = inputsDevice('scatter', values, index);
  const out = emptyTensor(device, values.dtype, [values.shape[0], cols]);
  if (out.numel() > 0)
    device.backend.scatterColumns(kernelView(values), kernelView(index), kernelView(out));
  return withGrad('ScatterBackward0', [values, index], out, (save) => {
    const idx = save(index);
    return (g) => [gatherColumns(g, idx), null];
  });
}

/**
 * Per-row cross-entropy of logits [R, C] against labels [R] in one kernel that also writes the
 * gradient softmax - onehot when one is needed, so backward is a single broadcast multiply.
 */
export function fusedCrossEntropy(logits: Tensor, labels: Tensor): Tensor {
  const device = inputsDevice('crossEntropy', logits, labels);
  const backend = device.backend;
  const [rows, cols] = logits.shape;
  const losses = emptyTensor(device, 'float32', [rows]);
  const grad = needsGrad(logits) ? emptyTensor(device, 'float32', [rows, cols]) : null;
  if (rows > 0) {
    backend.softmaxCrossEntropy(
      kernelView(logits),
      kernelView(labels),
      kernelView(losses),
      grad ? kernelView(grad) : null,
    );
  }
  if (!grad) return losses;
  return withGrad('CrossEntropyBackward0', [logits, labels], losses, (save) => {
    const rowGrad = save(grad);
    return (g) => [mul(rowGrad, reshape(g, [rows, 1])), null];
  });
}

export type Reduction = 'mean' | 'sum' | 'none';

function reduce(op: string, losses: Tensor, reduction: Reduction): Tensor {
  if (reduction === 'mean') return mean(losses);
  if (reduction === 'sum') return sum(losses);
  if (reduction === 'none') return losses;
  throw new TypeError(
    `${op}: reduction must be 'mean', 'sum' or 'none', got ${JSON.stringify(reduction)}`,
  );
}

/**
 * Cross-entropy of logits [N, C] (or [N, C, d1, …]) against integer class labels [N] (or
 * [N, d1, …]), or against class probabilities of the logits' shape.
 */
export function crossEntropy(input: Tensor, target: Tensor, reduction: Reduction = 'mean'): Tensor {
  inputsDevice('crossEntropy', input, target);
  requireFloat('crossEntropy', input, 'input (logits)');
  if (input.ndim < 1) throw new ShapeError('crossEntropy: input must have a class dimension');
  return scoped(() => {
    const logits = input.ndim === 1 ? reshape(input, [1, input.shape[0]]) : input;
    const classes = logits.shape[1];
    if (target.dtype === 'float32' && shapesEqual(target.shape, input.shape)) {
      const logp = logSoftmax(logits, 1);
      const perSample = neg(
        sum(mul(logp, input.ndim === 1 ? reshape(target, logits.shape) : target), 1),
      );
      return reduce(
        'crossEntropy',
        input.ndim === 1 ? reshape(perSample, []) : perSample,
        reduction,
      );
    }
    const expected = [logits.shape[0], ...logits.shape.slice(2)];
    const labels0 = input.ndim === 1 ? reshape(target, [1]) : target;
    if (!shapesEqual(labels0.shape, expected)) {
      throw new ShapeError(
        `crossEntropy: expected target of shape ${formatShape(input.ndim === 1 ? [] : expected)} ` +
          `(class labels) or ${formatShape(input.shape)} (probabilities) for input ` +
          `${formatShape(input.shape)}, got ${formatShape(target.shape)}`,
      );
    }
    // JS has no int literals: float labels such as torch.tensor([0, 2, 1]) are accepted as ints.
    const labels = cast(labels0, 'int32');
    checkIndexRange('crossEntropy', 'label', labels, classes, 'classes');
    const flatLabels = reshape(labels, [-1]);
    const flatLogits = reshape(movedim(logits, 1, logits.ndim - 1), [-1, classes]);
    const perSample = fusedCrossEntropy(flatLogits, flatLabels);
    const losses = reshape(perSample, input.ndim === 1 ? [] : expected);
    return reduce('crossEntropy', losses, reduction);
  });
}

/** Mean squared error (inputs broadcast, as in PyTorch). */
export function mseLoss(input: Tensor, target: Tensor, reduction: Reduction = 'mean'): Tensor {
  requireFloat('mseLoss', input);
  return scoped(() =>
    presentAs(reduce('mseLoss', square(sub(input, target)), reduction), 'MseLossBackward0'),
  );
}

// ---------------------------------------------------------------------------------------------
// Dropout and embedding.

/**
 * Zeroes elements with probability p and scales the rest by 1/(1-p); identity when not training.
 * `channelwise` drops whole channels of [N, C, …] (Dropout2d).
 */
export function dropout(x: Tensor, p = 0.5, training = true, channelwise = false): Tensor {
  if (!(p >= 0 && p <= 1))
    throw new RangeError(`dropout probability has to be between 0 and 1, but got ${p}`);
  inputsDevice('dropout', x);
  requireFloat('dropout', x);
  if (!training || p === 0) return x;
  return scoped(() => {
    if (p === 1) return mul(x, 0);
    const maskShape = channelwise && x.ndim >= 2 ? x.shape.map((s, i) => (i < 2 ? s : 1)) : x.shape;
    const u = random('uniform', maskShape, 0, 1, { device: x.deviceObject });
    const keep = mul(step(sub(u, p)), 1 / (1 - p));
    return mul(x, keep);
  });
}

/** Rows of weight [V, D] picked by int indices of any shape → [...indices.shape, D]. */
export function embedding(
  indices: Tensor,
  weight: Tensor,
  /** A row whose lookups send no gradient back to it (PyTorch's padding_idx), or null. */
  paddingIdx: number | null = null,
): Tensor {
  inputsDevice('embedding', indices, weight);
  if (indices.dtype !== 'int32') {
    throw new TypeError(
      `embedding: indices must be an int32 tensor, got ${indices.dtype} (use .int() or .long())`,
    );
  }
  if (weight.ndim !== 2)
    throw new ShapeError(`embedding: weight must be 2-D [V, D], got ${formatShape(weight.shape)}`);
  checkIndexRange('embedding', 'index', indices, weight.shape[0], 'rows of the embedding table');
  return scoped(() => {
    const flat = reshape(indices, [-1]);
    const rows =
      paddingIdx === null ? indexSelectRows(weight, flat) : lookup(weight, flat, paddingIdx);
    return reshape(rows, [...indices.shape, weight.shape[1]]);
  });
}

/** Rows of table [V, D] at index [N]; the gradient scattered back skips row `padding`. */
function lookup(table: Tensor, index: Tensor, padding: number): Tensor {
  const device = inputsDevice('embedding', table, index);
  const [vocab, width] = table.shape;
  const out = emptyTensor(device, table.dtype, [index.shape[0], width]);
  if (out.numel() > 0) {
    device.backend.indexSelect(kernelView(table), kernelView(index), kernelView(out));
  }
  return withGrad('EmbeddingBackward0', [table], out, (save) => {
    const idx = save(index);
    return (g) => {
      const grad = indexAddRows(g, idx, vocab);
      // Exact zeros, as PyTorch leaves the padding row's gradient (whatever g held there).
      const row = narrow(grad, 0, padding, 1);
      fillInto(row, 0);
      row.dispose();
      return [grad];
    };
  });
}
