/**
 * Keras's activation functions beyond the element-wise table's four (relu, sigmoid, tanh,
 * softplus): the names `Dense(…, activation='gelu')` accepts, each the engine's op with Keras's
 * default arguments (gelu exact, leaky_relu's slope 0.2 as Keras 3, selu's constants equal to
 * PyTorch's), and `tf.keras.activations` / `keras.activations` as functions with Keras's
 * signatures (`relu(x, negative_slope, max_value, threshold)`, `softmax(x, axis)`, `get(name)`).
 */
import { defaultDevice, ops, Tensor } from '../../../engine';
import { asNumber, bindArgs, describe, optional } from '../../args';

type Fn = (x: Tensor) => Tensor;

/** A tensor argument (numbers and nested lists made one on the tf default device), as float32. */
const floatOf = (value: unknown, what: string): Tensor => {
  let t: Tensor;
  if (value instanceof Tensor) t = value;
  else if (typeof value === 'number' || Array.isArray(value))
    t = ops.fromData(value, { device: defaultDevice('tf') });
  else throw new TypeError(`${what}: expected a tensor, got ${describe(value)}`);
  return t.dtype === 'float32' ? t : ops.cast(t, 'float32');
};

/** The extra names `getActivation` knows, as one-tensor functions with Keras's defaults. */
export const extraActivations: Record<string, Fn> = {
  elu: (x) => ops.unaryWithArgs('elu', x, { alpha: 1 }),
  selu: (x) => ops.unaryOps.selu(x),
  gelu: (x) => ops.unaryWithArgs('gelu', x, { approximate: 'none' }),
  silu: (x) => ops.silu(x),
  swish: (x) => ops.silu(x),
  softsign: (x) => ops.unaryOps.softsign(x),
  relu6: (x) => ops.unaryOps.relu6(x),
  mish: (x) => ops.unaryOps.mish(x),
  exponential: (x) => ops.exp(x),
  leaky_relu: (x) => ops.unaryWithArgs('leakyRelu', x, { negativeSlope: 0.2 }),
  hard_silu: (x) => ops.unaryOps.hardswish(x),
  hard_swish: (x) => ops.unaryOps.hardswish(x),
  log_softmax: (x) => ops.logSoftmax(x, -1),
};

/**
 * Keras's relu: max(x, 0) (x where x > threshold when a threshold is given), clipped to
 * `max_value`, minus `negative_slope`·relu(threshold − x) — Keras 3's formula, term by term.
 */
function relu(...args: unknown[]): Tensor {
  const what = 'relu';
  const a = bindArgs({ name: what, params: ['x', 'negativeSlope', 'maxValue', 'threshold'] }, args);
  const x = floatOf(a.x, what);
  const slope = optional(a.negativeSlope, asNumber, `${what}: negative_slope`, 0);
  const max = optional<number | null>(a.maxValue, asNumber, `${what}: max_value`, null);
  const threshold = optional(a.threshold, asNumber, `${what}: threshold`, 0);
  let y = threshold !== 0 ? ops.mul(x, ops.cast(ops.gt(x, threshold), 'float32')) : ops.relu(x);
  if (max !== null) y = ops.clamp(y, 0, max);
  if (slope !== 0) y = ops.sub(y, ops.mul(ops.relu(ops.sub(threshold, x)), slope));
  return y;
}

/** `fn` under Keras's `name` (a model's summary and plot show an activation by its name). */
function named<F extends (...args: never[]) => unknown>(name: string, fn: F): F {
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
}

function alongAxis(name: string, run: (x: Tensor, axis: number) => Tensor) {
  return named(name, (...args: unknown[]): Tensor => {
    const a = bindArgs({ name, params: ['x', 'axis'] }, args);
    return run(floatOf(a.x, name), optional(a.axis, asNumber, `${name}: axis`, -1));
  });
}

/** A one-argument activation with optional Keras arguments bound by name. */
function withParam(
  name: string,
  param: string,
  fallback: number,
  run: (x: Tensor, value: number) => Tensor,
) {
  return named(name, (...args: unknown[]): Tensor => {
    const a = bindArgs({ name, params: ['x', param] }, args);
    return run(floatOf(a.x, name), optional(a[param], asNumber, `${name}: ${param}`, fallback));
  });
}

const plain = (name: string, fn: Fn) =>
  named(name, (...args: unknown[]): Tensor => {
    const a = bindArgs({ name, params: ['x'] }, args);
    return fn(floatOf(a.x, name));
  });

/**
 * `tf.keras.activations`: the functions by Keras's names. `get` is given the `getActivation` of
 * activations.ts (which knows these names) by keras/index.ts's caller, avoiding an import cycle.
 */
export function activationsNamespace(
  lookUp: (spec: unknown) => Fn,
  softmax: Fn,
): Record<string, unknown> {
  return {
    relu,
    // The named sigmoid: its outputs remember their logits for binary_crossentropy, as TF's.
    sigmoid: plain('sigmoid', (x) => lookUp('sigmoid')(x)),
    tanh: plain('tanh', ops.tanh),
    softplus: plain('softplus', (x) => ops.unaryOps.softplus(x)),
    softmax: alongAxis('softmax', (x, axis) => (axis === -1 ? softmax(x) : ops.softmax(x, axis))),
    logSoftmax: alongAxis('log_softmax', (x, axis) => ops.logSoftmax(x, axis)),
    linear: plain('linear', (x) => x),
    elu: withParam('elu', 'alpha', 1, (x, alpha) => ops.unaryWithArgs('elu', x, { alpha })),
    selu: plain('selu', extraActivations.selu),
    gelu: named('gelu', (...args: unknown[]): Tensor => {
      const a = bindArgs({ name: 'gelu', params: ['x', 'approximate'] }, args);
      const approximate = a.approximate === true ? 'tanh' : 'none';
      return ops.unaryWithArgs('gelu', floatOf(a.x, 'gelu'), { approximate });
    }),
    silu: plain('silu', extraActivations.silu),
    swish: plain('swish', extraActivations.swish),
    softsign: plain('softsign', extraActivations.softsign),
    relu6: plain('relu6', extraActivations.relu6),
    mish: plain('mish', extraActivations.mish),
    exponential: plain('exponential', ops.exp),
    leakyRelu: withParam('leaky_relu', 'negativeSlope', 0.2, (x, slope) =>
      ops.unaryWithArgs('leakyRelu', x, { negativeSlope: slope }),
    ),
    hardSilu: plain('hard_silu', extraActivations.hard_silu),
    hardSwish: plain('hard_swish', extraActivations.hard_swish),
    /** `get('relu')` or a function: the activation function (Keras's `activations.get`). */
    get: (identifier: unknown): Fn => lookUp(identifier),
    /** The name of an activation function (Keras's `serialize` gives its name). */
    serialize: (fn: unknown): string =>
      typeof fn === 'function' && (fn as { name?: string }).name
        ? String((fn as { name: string }).name)
        : 'custom',
  };
}
