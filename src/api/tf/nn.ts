/**
 * `tf.nn.*` beyond the element-wise table's rows (tf.nn.relu, sigmoid, tanh, softplus come from
 * there): softmax and log_softmax along an axis, TensorFlow's three cross-entropies with logits,
 * l2_normalize, moments and dropout, with TensorFlow's signatures, over the engine's ops (so
 * differentiable through tf.GradientTape).
 */
import { ops, type Tensor } from '../../engine';
import { asInt, asNumber, bindArgs, boolArg, optional, asShape } from '../args';
import { ValueError } from '../tf-config';
import { axesArg, axisIndex, floatOf, tensorOf } from './tensor-args';

const sig = (name: string, params: readonly string[]) => ({ name, params: [...params, 'name'] });

function alongAxis(name: string, run: (x: Tensor, axis: number) => Tensor) {
  return (...args: unknown[]): Tensor => {
    const a = bindArgs(sig(`tf.nn.${name}`, ['logits', 'axis']), args);
    const x = floatOf(a.logits);
    return run(x, axisIndex(optional(a.axis, asInt, 'axis', -1), x.ndim, `tf.nn.${name}`));
  };
}

function sameShapes(name: string, labels: Tensor, logits: Tensor): void {
  if (
    labels.shape.length !== logits.shape.length ||
    labels.shape.some((s, i) => s !== logits.shape[i])
  )
    throw new ValueError(
      `tf.nn.${name}: logits and labels must have the same shape ([${logits.shape.join(', ')}] vs [${labels.shape.join(', ')}])`,
    );
}

/**
 * max(x, 0) − x·z + log(1 + e^(−|x|)): TensorFlow's stable form of
 * −z·log σ(x) − (1 − z)·log(1 − σ(x)), element-wise.
 */
function sigmoidCrossEntropyWithLogits(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.nn.sigmoidCrossEntropyWithLogits', ['labels', 'logits']), args);
  const logits = floatOf(a.logits);
  const labels = floatOf(a.labels);
  sameShapes('sigmoid_cross_entropy_with_logits', labels, logits);
  const softplusNegAbs = ops.unaryOps.softplus(ops.neg(ops.abs(logits)));
  return ops.add(ops.sub(ops.relu(logits), ops.mul(logits, labels)), softplusNegAbs);
}

/** −Σ labels · log_softmax(logits) along `axis`; differentiable in both (TF's v2 form). */
function softmaxCrossEntropyWithLogits(...args: unknown[]): Tensor {
  const a = bindArgs(
    sig('tf.nn.softmaxCrossEntropyWithLogits', ['labels', 'logits', 'axis']),
    args,
  );
  const logits = floatOf(a.logits);
  const labels = floatOf(a.labels);
  sameShapes('softmax_cross_entropy_with_logits', labels, logits);
  const axis = axisIndex(
    optional(a.axis, asInt, 'axis', -1),
    logits.ndim,
    'tf.nn.softmax_cross_entropy_with_logits',
  );
  return ops.neg(ops.sum(ops.mul(labels, ops.logSoftmax(logits, axis)), axis));
}

/** −log_softmax(logits)[label] for int labels of shape logits.shape[:-1]. */
function sparseSoftmaxCrossEntropyWithLogits(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.nn.sparseSoftmaxCrossEntropyWithLogits', ['labels', 'logits']), args);
  const logits = floatOf(a.logits);
  const labels = tensorOf(a.labels, 'int32');
  const batch = logits.shape.slice(0, -1);
  if (labels.shape.length !== batch.length || labels.shape.some((s, i) => s !== batch[i]))
    throw new ValueError(
      `tf.nn.sparse_softmax_cross_entropy_with_logits: labels shape [${labels.shape.join(', ')}] must equal logits shape [${logits.shape.join(', ')}] without its last dimension`,
    );
  const picked = ops.takeAlongDim(ops.logSoftmax(logits, -1), ops.unsqueeze(labels, -1), -1);
  return ops.neg(ops.squeeze(picked, -1));
}

/** x / sqrt(max(Σ x², epsilon)) over `axis` (all axes when None). */
function l2Normalize(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.nn.l2Normalize', ['x', 'axis', 'epsilon']), args);
  const x = floatOf(a.x);
  const dims = axesArg(a.axis, x.ndim, 'tf.nn.l2_normalize') ?? x.shape.map((_, i) => i);
  const eps = optional(a.epsilon, asNumber, 'epsilon', 1e-12);
  const squares = ops.sum(ops.square(x), dims, true);
  return ops.mul(x, ops.rsqrt(ops.maximum(squares, eps)));
}

/** [mean, variance] over `axes` (the biased variance, as TensorFlow). */
function moments(...args: unknown[]): Tensor[] {
  const a = bindArgs(sig('tf.nn.moments', ['x', 'axes', 'shift', 'keepdims']), args);
  const x = floatOf(a.x);
  const dims = axesArg(a.axes, x.ndim, 'tf.nn.moments');
  if (dims === undefined) throw new TypeError('tf.nn.moments: axes is required');
  const keep = boolArg(a.keepdims, 'keepdims');
  const mean = ops.mean(x, dims, true);
  const variance = ops.mean(ops.square(ops.sub(x, mean)), dims, true);
  if (keep) return [mean, variance];
  return [ops.squeeze(mean, dims), ops.squeeze(variance, dims)];
}

/** Keeps each element with probability 1 − rate, scaled by 1 / (1 − rate). */
function dropout(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.nn.dropout', ['x', 'rate', 'noiseShape', 'seed']), args);
  const x = floatOf(a.x);
  const rate = asNumber(a.rate, 'tf.nn.dropout: rate');
  if (!(rate >= 0 && rate < 1))
    throw new ValueError(
      `tf.nn.dropout: rate must be a scalar tensor or a float in the range [0, 1), got ${rate}`,
    );
  if (rate === 0) return x;
  const noiseShape =
    a.noiseShape === undefined || a.noiseShape === null
      ? x.shape
      : asShape(a.noiseShape, 'tf.nn.dropout: noise_shape');
  const u = ops.random('uniform', noiseShape, 0, 1, { device: x.deviceObject });
  const keep = ops.mul(ops.cast(ops.ge(u, rate), 'float32'), 1 / (1 - rate));
  return ops.mul(x, keep);
}

/** An activation `tf.nn.<name>(features, ...)` with TensorFlow's argument names and defaults. */
function activation(
  name: string,
  params: readonly string[],
  run: (x: Tensor, a: Record<string, unknown>) => Tensor,
) {
  return (...args: unknown[]): Tensor => {
    const a = bindArgs(sig(`tf.nn.${name}`, ['features', ...params]), args);
    return run(floatOf(a.features), a);
  };
}

// TensorFlow's leaky_relu slope defaults to 0.2 (PyTorch's to 0.01); silu takes a beta.
const leakyRelu = activation('leakyRelu', ['alpha'], (x, a) =>
  ops.unaryWithArgs('leakyRelu', x, { negativeSlope: optional(a.alpha, asNumber, 'alpha', 0.2) }),
);
const silu = activation('silu', ['beta'], (x, a) => {
  const beta = optional(a.beta, asNumber, 'beta', 1);
  return beta === 1 ? ops.silu(x) : ops.mul(x, ops.sigmoid(ops.mul(x, beta)));
});

/** tf.nn.bias_add(value, bias): bias [C] added along the last axis (data_format NHWC). */
function biasAdd(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.nn.biasAdd', ['value', 'bias', 'dataFormat']), args);
  const value = floatOf(a.value);
  const bias = floatOf(a.bias);
  if (bias.ndim !== 1 || bias.shape[0] !== value.shape[value.ndim - 1])
    throw new ValueError(
      `tf.nn.bias_add: bias must be 1-D with the size of value's last dimension, got [${bias.shape.join(', ')}] for value [${value.shape.join(', ')}]`,
    );
  return ops.add(value, bias);
}

export const tfNnOps = {
  leakyRelu,
  elu: activation('elu', [], (x) => ops.unaryWithArgs('elu', x, { alpha: 1 })),
  gelu: activation('gelu', ['approximate'], (x, a) =>
    ops.unaryWithArgs('gelu', x, { approximate: a.approximate === true ? 'tanh' : 'none' }),
  ),
  silu,
  swish: silu,
  relu6: activation('relu6', [], (x) => ops.clamp(x, 0, 6)),
  biasAdd,
  softmax: alongAxis('softmax', ops.softmax),
  logSoftmax: alongAxis('logSoftmax', ops.logSoftmax),
  sigmoidCrossEntropyWithLogits,
  softmaxCrossEntropyWithLogits,
  sparseSoftmaxCrossEntropyWithLogits,
  l2Normalize,
  moments,
  dropout,
};

/** The ones TensorFlow also has at `tf.math.*`. */
export const tfMathFromNn = {
  softmax: tfNnOps.softmax,
  logSoftmax: tfNnOps.logSoftmax,
  l2Normalize,
};
