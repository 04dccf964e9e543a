/**
 * `tf.random.*` with TensorFlow's signatures over the engine's seeded generator (`set_seed` is
 * the engine's manual seed; the per-op `seed` arguments are accepted and, as the global seed
 * alone decides the sequence here, not used).
 */
import { defaultDevice, manualSeed, ops, type Tensor } from '../../engine';
import { multinomial } from '../../engine/ops/multinomial';
import { asInt, asNumber, asShape, bindArgs, dtypeArg, optional } from '../args';
import { ValueError } from '../tf-config';
import { floatOf, tensorOf } from './tensor-args';

const sig = (name: string, params: readonly string[]) => ({ name, params: [...params, 'name'] });
const here = () => ({ device: defaultDevice('tf') });

/**
 * Rounds of candidates for truncated_normal: each element takes the first candidate within two
 * standard deviations. A normal falls outside with probability 0.0455, so all 12 miss with
 * probability 8e-17; such an element takes a uniform value in the bounds instead.
 */
const TRUNCATION_ROUNDS = 12;

/** tf.random.uniform(shape, minval=0, maxval=None, dtype=float32, seed=None). */
function uniform(...args: unknown[]): Tensor {
  const a = bindArgs(
    sig('tf.random.uniform', ['shape', 'minval', 'maxval', 'dtype', 'seed']),
    args,
  );
  const shape = asShape(a.shape, 'tf.random.uniform: shape');
  const dtype = dtypeArg(a.dtype) ?? 'float32';
  const low = optional(a.minval, asNumber, 'minval', 0);
  if (dtype === 'int32') {
    if (a.maxval === undefined || a.maxval === null)
      throw new ValueError('Must specify maxval for integer dtype tf.int32');
    const high = asInt(a.maxval, 'maxval');
    if (!Number.isInteger(low) || high <= low)
      throw new ValueError(`Need minval < maxval, got ${low} >= ${high}`);
    const u = ops.random('uniform', shape, low, high, here());
    // A float32 draw can round up to maxval itself; the range is [minval, maxval).
    return ops.cast(ops.clamp(ops.floor(u), low, high - 1), 'int32');
  }
  const high = optional(a.maxval, asNumber, 'maxval', 1);
  return ops.random('uniform', shape, low, high, here());
}

/** tf.random.normal(shape, mean=0, stddev=1, dtype=float32, seed=None). */
function normal(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.random.normal', ['shape', 'mean', 'stddev', 'dtype', 'seed']), args);
  return ops.random(
    'normal',
    asShape(a.shape, 'tf.random.normal: shape'),
    optional(a.mean, asNumber, 'mean', 0),
    optional(a.stddev, asNumber, 'stddev', 1),
    { ...here(), dtype: dtypeArg(a.dtype) },
  );
}

/** tf.random.truncated_normal: normal values, those beyond 2 stddev from the mean redrawn. */
function truncatedNormal(...args: unknown[]): Tensor {
  const a = bindArgs(
    sig('tf.random.truncatedNormal', ['shape', 'mean', 'stddev', 'dtype', 'seed']),
    args,
  );
  const shape = asShape(a.shape, 'tf.random.truncated_normal: shape');
  const mean = optional(a.mean, asNumber, 'mean', 0);
  const stddev = optional(a.stddev, asNumber, 'stddev', 1);
  let out = ops.random('uniform', shape, -2, 2, here());
  for (let i = 0; i < TRUNCATION_ROUNDS; i++) {
    const candidate = ops.random('normal', shape, 0, 1, here());
    // Later rounds are laid under earlier ones, so the first candidate in bounds wins.
    out = ops.where(ops.le(ops.abs(candidate), 2), candidate, out);
  }
  return ops.add(ops.mul(out, stddev), mean);
}

/** tf.random.shuffle(value): a random permutation of the first dimension. */
function shuffle(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.random.shuffle', ['value', 'seed']), args);
  const x = tensorOf(a.value);
  if (x.ndim === 0) throw new ValueError('tf.random.shuffle: value must be at least 1-D');
  const keys = ops.random('uniform', [x.shape[0]], 0, 1, { device: x.deviceObject });
  return ops.indexSelect(x, 0, ops.argsort(keys, 0));
}

/** tf.random.categorical(logits, num_samples): [batch, num_samples] class indices. */
function categorical(...args: unknown[]): Tensor {
  const a = bindArgs(sig('tf.random.categorical', ['logits', 'numSamples', 'dtype', 'seed']), args);
  const logits = floatOf(a.logits);
  if (logits.ndim !== 2)
    throw new ValueError(
      `tf.random.categorical: logits should be a matrix [batch_size, num_classes], got shape [${logits.shape.join(', ')}]`,
    );
  const n = asInt(a.numSamples, 'tf.random.categorical: num_samples');
  return multinomial(ops.softmax(logits, -1), n, true);
}

export const tfRandom = {
  uniform,
  normal,
  truncatedNormal,
  shuffle,
  categorical,
  setSeed: (seed: number): void => {
    manualSeed(asInt(seed, 'tf.random.set_seed: seed'));
  },
};
