/**
 * Normalisation ops (PyTorch's F.layer_norm, batch_norm, group_norm, instance_norm). Every one is
 * the same computation on a different view of its input: the input as [A, C, B], normalised per
 * c over the A·B values of its slice (biased variance), then a per-channel affine. LayerNorm is
 * [1, rows, K]; BatchNorm [N, C, L]; GroupNorm [1, N·G, rest]; InstanceNorm [1, N·C, L].
 */
import { noGrad, withGrad } from '../autograd';
import { formatShape, numel, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { add, cast, div, mul, rsqrt, square, sub } from './elementwise';
import { copyInto } from './inplace';
import { mean } from './reduce';
import { contiguous, reshape } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped, scopedAll } from './support';

/**
 * `(x - mean) / sqrt(var + eps)` of x3 [A, C, B] per c, with the batch statistics mean and
 * (biased) variance, each [C] and detached (for running statistics). One kernel for the forward
 * (statistics and output) and one for the input gradient.
 */
export function normalizeSlices(x3: Tensor, eps: number): [Tensor, Tensor, Tensor] {
  const device = inputsDevice('normalize', x3);
  return scopedAll(() => {
    const x = contiguous(x3);
    const c = x.shape[1];
    const y = emptyTensor(device, 'float32', x.shape);
    const mu = emptyTensor(device, 'float32', [c]);
    const variance = emptyTensor(device, 'float32', [c]);
    device.backend.normalizeSlices(
      kernelView(x),
      kernelView(y),
      kernelView(mu),
      kernelView(variance),
      eps,
    );
    const out = withGrad('NativeNormBackward0', [x3], y, (save) => {
      const ys = save(y);
      const vs = save(variance);
      return (g) => [normalizeSlicesBackward(g, ys, vs, eps)];
    });
    return [out, mu, variance] as const;
  });
}

/** The input gradient of `normalizeSlices` from its output y and variance. */
function normalizeSlicesBackward(g: Tensor, y: Tensor, variance: Tensor, eps: number): Tensor {
  const device = inputsDevice('normalize backward', g, y, variance);
  return scoped(() => {
    const gc = contiguous(g);
    const dx = emptyTensor(device, 'float32', y.shape);
    device.backend.normalizeSlicesBackward(
      kernelView(gc),
      kernelView(y),
      kernelView(variance),
      kernelView(dx),
      eps,
    );
    return dx;
  });
}

/**
 * `normalizeSlices` composed of reductions and element-wise ops (autograd through each): the
 * reference its kernels are tested and timed against.
 */
export function normalizeSlicesComposed(x3: Tensor, eps: number): [Tensor, Tensor, Tensor] {
  return scopedAll(() => {
    const mu = mean(x3, [0, 2], true);
    const centred = sub(x3, mu);
    const variance = mean(square(centred), [0, 2], true);
    const y = mul(centred, rsqrt(add(variance, eps)));
    const c = x3.shape[1];
    return [y, reshape(mu.detach(), [c]), reshape(variance.detach(), [c])] as const;
  });
}

/** `y * weight + bias` with weight and bias [C] applied along dim 1 of y (N, C, …). */
function affineChannels(y: Tensor, weight: Tensor | null, bias: Tensor | null): Tensor {
  const along = [y.shape[1], ...new Array<number>(Math.max(y.ndim - 2, 0)).fill(1)];
  let out = y;
  if (weight) out = mul(out, reshape(weight, along));
  if (bias) out = add(out, reshape(bias, along));
  return out;
}

function checkChannels(op: string, what: string, t: Tensor | null, c: number): void {
  if (t && (t.ndim !== 1 || t.shape[0] !== c)) {
    throw new ShapeError(
      `${op}: expected ${what} of shape [${c}] (one per channel), got ${formatShape(t.shape)}`,
    );
  }
}

function checkAll(op: string, x: Tensor, others: Record<string, Tensor | null>, c: number): void {
  requireFloat(op, x);
  inputsDevice(op, x, ...Object.values(others));
  for (const [what, t] of Object.entries(others)) checkChannels(op, what, t, c);
}

// ---------------------------------------------------------------------------------------------
// LayerNorm.

/** Normalises over the last dims, which must equal `normalizedShape`; weight/bias have that shape. */
export function layerNorm(
  x: Tensor,
  normalizedShape: readonly number[],
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  requireFloat('layerNorm', x);
  inputsDevice('layerNorm', x, weight, bias);
  const k = normalizedShape.length;
  const tail = x.shape.slice(x.ndim - k);
  if (k === 0 || x.ndim < k || tail.some((d, i) => d !== normalizedShape[i])) {
    throw new ShapeError(
      `layerNorm: given normalized_shape=${formatShape(normalizedShape)}, expected input with ` +
        `shape [*, ${normalizedShape.join(', ')}], but got input of size ${formatShape(x.shape)}`,
    );
  }
  for (const [what, t] of [
    ['weight', weight],
    ['bias', bias],
  ] as const) {
    if (t && formatShape(t.shape) !== formatShape(normalizedShape)) {
      throw new ShapeError(
        `layerNorm: expected ${what} of shape ${formatShape(normalizedShape)}, got ${formatShape(t.shape)}`,
      );
    }
  }
  return scoped(() => {
    const inner = numel(normalizedShape);
    const rows = inner === 0 ? 0 : numel(x.shape) / inner;
    const [y3] = normalizeSlices(reshape(x, [1, rows, inner]), eps);
    let y = reshape(y3, x.shape);
    if (weight) y = mul(y, weight);
    if (bias) y = add(y, bias);
    return y;
  });
}

// ---------------------------------------------------------------------------------------------
// BatchNorm and InstanceNorm.

/** In place: running ← running·(1 - factor) + batch·factor (factor a number or a 0-d tensor). */
function blend(running: Tensor, batch: Tensor, factor: number | Tensor): void {
  noGrad(() => copyInto(running, add(running, mul(sub(batch, running), factor))));
}

/** The running statistics' update: PyTorch's `momentum` or, with null, the cumulative average. */
function updateRunning(
  stats: RunningStats,
  batchMean: Tensor,
  batchVar: Tensor,
  count: number,
): void {
  const { runningMean, runningVar, numBatchesTracked, momentum } = stats;
  // The running variance is the unbiased one, as PyTorch keeps it.
  const unbiased = mul(batchVar, count / Math.max(count - 1, 1));
  let factor: number | Tensor = momentum ?? 1;
  if (numBatchesTracked) {
    noGrad(() => copyInto(numBatchesTracked, add(numBatchesTracked, 1)));
    // Read on the device: no wait for the count to reach the host.
    if (momentum === null) factor = div(1, cast(numBatchesTracked, 'float32'));
  }
  if (runningMean) blend(runningMean, batchMean, factor);
  if (runningVar) blend(runningVar, unbiased, factor);
}

export interface RunningStats {
  runningMean: Tensor | null;
  runningVar: Tensor | null;
  /** Incremented in training; with `momentum` null it sets the cumulative average's factor. */
  numBatchesTracked?: Tensor | null;
  /** PyTorch's momentum (0.1 by default); null for the cumulative moving average. */
  momentum: number | null;
}

/**
 * Batch normalisation of x [N, C, *] per channel: with `training` (or no running statistics) by
 * the batch's statistics, updating the running ones in place; otherwise by the running ones.
 */
export function batchNorm(
  x: Tensor,
  stats: RunningStats,
  weight: Tensor | null,
  bias: Tensor | null,
  training: boolean,
  eps = 1e-5,
): Tensor {
  const op = 'batchNorm';
  if (x.ndim < 2) {
    throw new ShapeError(
      `${op}: expected an input of shape [N, C, *], got ${formatShape(x.shape)}`,
    );
  }
  const c = x.shape[1];
  const { runningMean, runningVar } = stats;
  checkAll(op, x, { weight, bias, running_mean: runningMean, running_var: runningVar }, c);
  const useBatch = training || !runningMean || !runningVar;
  return scoped(() => {
    const n = x.shape[0];
    const rest = numel(x.shape.slice(2));
    const x3 = reshape(x, [n, c, rest]);
    if (!useBatch) {
      const y3 = mul(
        sub(x3, reshape(runningMean, [1, c, 1])),
        reshape(rsqrt(add(runningVar, eps)), [1, c, 1]),
      );
      return affineChannels(reshape(y3, x.shape), weight, bias);
    }
    const count = n * rest;
    if (training && count <= 1) {
      throw new Error(
        `${op}: expected more than 1 value per channel when training, got input size ${formatShape(x.shape)}`,
      );
    }
    const [y3, mu, variance] = normalizeSlices(x3, eps);
    if (training) updateRunning(stats, mu, variance, count);
    return affineChannels(reshape(y3, x.shape), weight, bias);
  });
}

/**
 * Instance normalisation of x [N, C, *]: each sample's channel over its own positions. With
 * running statistics and `useInputStats`, their update is the batch's mean over samples.
 */
export function instanceNorm(
  x: Tensor,
  stats: RunningStats,
  weight: Tensor | null,
  bias: Tensor | null,
  useInputStats: boolean,
  eps = 1e-5,
): Tensor {
  const op = 'instanceNorm';
  if (x.ndim < 3) {
    throw new ShapeError(
      `${op}: expected an input of shape [N, C, L, …], got ${formatShape(x.shape)}`,
    );
  }
  const [n, c] = x.shape;
  const { runningMean, runningVar } = stats;
  checkAll(op, x, { weight, bias, running_mean: runningMean, running_var: runningVar }, c);
  if (!useInputStats && (!runningMean || !runningVar)) {
    throw new Error(`${op}: expected running_mean and running_var when use_input_stats=False`);
  }
  return scoped(() => {
    const rest = numel(x.shape.slice(2));
    if (!useInputStats && runningMean && runningVar) {
      const y = batchNorm(x, stats, null, null, false, eps);
      return affineChannels(y, weight, bias);
    }
    const [y3, mu, variance] = normalizeSlices(reshape(x, [1, n * c, rest]), eps);
    if (runningMean || runningVar) {
      const perChannel = (t: Tensor) => mean(reshape(t, [n, c]), 0);
      updateRunning(stats, perChannel(mu), perChannel(variance), rest);
    }
    return affineChannels(reshape(y3, x.shape), weight, bias);
  });
}

// ---------------------------------------------------------------------------------------------
// GroupNorm.

/** Normalises x [N, C, *] over each group of C / numGroups channels (and all positions). */
export function groupNorm(
  x: Tensor,
  numGroups: number,
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  const op = 'groupNorm';
  if (x.ndim < 2) {
    throw new ShapeError(
      `${op}: expected an input of shape [N, C, *], got ${formatShape(x.shape)}`,
    );
  }
  const [n, c] = x.shape;
  if (!Number.isInteger(numGroups) || numGroups <= 0 || c % numGroups !== 0) {
    throw new ShapeError(
      `${op}: expected number of channels in input to be divisible by num_groups, but got ` +
        `input of shape ${formatShape(x.shape)} and num_groups=${numGroups}`,
    );
  }
  checkAll(op, x, { weight, bias }, c);
  return scoped(() => {
    const rest = numel(x.shape) / Math.max(n * numGroups, 1);
    const [y3] = normalizeSlices(reshape(x, [1, n * numGroups, rest]), eps);
    return affineChannels(reshape(y3, x.shape), weight, bias);
  });
}
