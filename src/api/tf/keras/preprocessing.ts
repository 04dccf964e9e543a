/**
 * `tf.keras.preprocessing.sequence.padSequences(seqs, { maxlen })` over the data helper's
 * padSequences. Keras returns a NumPy array in host memory; here that is an int32 tensor on the
 * cpu, so `MAX_WORDS = (await xTrain.max().item()) + 1` reads it at once, and fit/Dataset copy
 * batches to the GPU as TensorFlow does.
 */
import { cpu, ops, Tensor } from '../../../engine';
import { padSequences as padHost } from '../../../engine/data/datasets';
import { bindArgs, describe, dtypeArg, optional, asInt, asNumber } from '../../args';

function sequencesArg(value: unknown): ArrayLike<number>[] {
  if (value instanceof Tensor)
    throw new TypeError('padSequences expects a list of sequences (arrays of ints), not a tensor');
  if (!Array.isArray(value))
    throw new TypeError(
      `padSequences: sequences must be a list of sequences, got ${describe(value)}`,
    );
  return value.map((s, i) => {
    if (Array.isArray(s) || (ArrayBuffer.isView(s) && !(s instanceof DataView)))
      return s as ArrayLike<number>;
    throw new TypeError(`padSequences: sequence ${i} must be an array of ints, got ${describe(s)}`);
  });
}

/** Keras's pad_sequences: [n, maxlen] int32 (or the given dtype), 'pre' padding and truncation by default. */
export function padSequences(...args: unknown[]): Tensor {
  const a = bindArgs(
    {
      name: 'padSequences',
      params: ['sequences', 'maxlen', 'dtype', 'padding', 'truncating', 'value'],
    },
    args,
  );
  const padding = a.padding === undefined ? 'pre' : a.padding;
  const truncating = a.truncating === undefined ? 'pre' : a.truncating;
  if (padding !== 'pre' && padding !== 'post')
    throw new TypeError(`padding ${describe(padding)} not understood: use 'pre' or 'post'`);
  if (truncating !== 'pre' && truncating !== 'post')
    throw new TypeError(`truncating ${describe(truncating)} not understood: use 'pre' or 'post'`);
  const { data, shape } = padHost(sequencesArg(a.sequences), {
    maxlen: optional<number | undefined>(a.maxlen, asInt, 'padSequences: maxlen', undefined),
    padding,
    truncating,
    value: optional(a.value, asNumber, 'padSequences: value', 0),
  });
  const t = ops.fromHost(data, shape, { device: cpu(), dtype: 'int32' });
  const dtype = dtypeArg(a.dtype) ?? 'int32';
  return dtype === 'int32' ? t : ops.cast(t, dtype);
}

export const preprocessing = { sequence: { padSequences } };
