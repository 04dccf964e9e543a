/** Keras's `pad_sequences`: ragged integer sequences to one [n, maxlen] int32 matrix. */

export interface PadSequencesOptions {
  /** Row length; default the longest sequence. */
  maxlen?: number;
  /** Where the fill goes: before the sequence ('pre', Keras's default) or after it. */
  padding?: 'pre' | 'post';
  /** Which end of a too-long sequence is cut: the start ('pre', Keras's default) or the end. */
  truncating?: 'pre' | 'post';
  /** The fill value. */
  value?: number;
}

export interface PaddedSequences {
  /** Row-major n × maxlen. */
  data: Int32Array;
  shape: [number, number];
}

export function padSequences(
  sequences: readonly ArrayLike<number>[],
  options: PadSequencesOptions = {},
): PaddedSequences {
  const { padding = 'pre', truncating = 'pre', value = 0 } = options;
  if (padding !== 'pre' && padding !== 'post') throw new Error(`padding must be 'pre' or 'post'`);
  if (truncating !== 'pre' && truncating !== 'post') {
    throw new Error(`truncating must be 'pre' or 'post'`);
  }
  const maxlen = options.maxlen ?? sequences.reduce((m, s) => Math.max(m, s.length), 0);
  if (!Number.isInteger(maxlen) || maxlen < 0) {
    throw new Error(`maxlen must be a non-negative integer, got ${maxlen}`);
  }

  const n = sequences.length;
  const data = new Int32Array(n * maxlen).fill(value);
  for (let row = 0; row < n; row++) {
    const s = sequences[row];
    const kept = Math.min(s.length, maxlen);
    // First source element kept, and first destination column written.
    const from = truncating === 'pre' ? s.length - kept : 0;
    const to = row * maxlen + (padding === 'pre' ? maxlen - kept : 0);
    for (let k = 0; k < kept; k++) data[to + k] = s[from + k];
  }
  return { data, shape: [n, maxlen] };
}
