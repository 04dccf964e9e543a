/**
 * Keras activations by name (the element-wise table's, 'softmax' and 'linear') or as functions.
 * A softmax output remembers its logits, as Keras's `_keras_logits` does, so a cross-entropy on
 * probabilities can work from the logits (exact and numerically stable) instead of log(p).
 */
import { ops, type Tensor } from '../../../engine';
import { kerasActivations } from '../../elementwise-faces';
import { extraActivations } from './activation-functions';

export type ActivationFn = (x: Tensor) => Tensor;

const logitsOf = new WeakMap<Tensor, Tensor>();

/** The logits a softmax output was computed from, when it came from a Keras softmax. */
export function kerasLogits(probabilities: Tensor): Tensor | undefined {
  return logitsOf.get(probabilities);
}

export function softmax(x: Tensor): Tensor {
  const y = ops.softmax(x, -1);
  logitsOf.set(y, x);
  return y;
}

const sigmoidLogitsOf = new WeakMap<Tensor, Tensor>();

/**
 * The logits a Keras sigmoid output was computed from: TF 2.15's `activations.sigmoid` caches
 * them too, and binary_crossentropy then works from them (no clipping) as with `from_logits`.
 */
export function kerasSigmoidLogits(probabilities: Tensor): Tensor | undefined {
  return sigmoidLogitsOf.get(probabilities);
}

function sigmoid(x: Tensor): Tensor {
  const y = ops.sigmoid(x);
  sigmoidLogitsOf.set(y, x);
  return y;
}

const NAMED: Record<string, ActivationFn> = {
  // The element-wise table's Keras rows: relu, sigmoid, tanh, …
  ...kerasActivations(),
  // Keras's other names (gelu, selu, swish, leaky_relu, …): activation-functions.ts.
  ...extraActivations,
  softmax,
  sigmoid,
  linear: (x) => x,
};

export interface Activation {
  /** Keras's name for the summary and errors ('linear' when none was given). */
  name: string;
  fn: ActivationFn;
}

export function getActivation(spec: unknown, what: string): Activation {
  if (spec === undefined || spec === null) return { name: 'linear', fn: NAMED.linear };
  if (typeof spec === 'function')
    return { name: (spec as { name?: string }).name || 'custom', fn: spec as ActivationFn };
  if (typeof spec === 'string' && spec in NAMED) return { name: spec, fn: NAMED[spec] };
  throw new TypeError(
    `${what}: unknown activation ${JSON.stringify(spec)}; use one of ${Object.keys(NAMED).join(', ')}, or a function`,
  );
}
