/**
 * Splitting and repeating: split, chunk, unbind and tensorSplit give views (narrows and selects,
 * so each piece's gradient lands in its part of the input); repeat and repeatInterleave are an
 * expand of a reshaped view, copied once (expand's gradient sums the copies back).
 */
import { ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { flatten, narrow, reshape, select, unsqueeze } from './shape-ops';
import { scoped, scopedAll } from './support';

function dimOf(op: string, x: Tensor, dim: number): number {
  const d = dim < 0 ? dim + x.ndim : dim;
  if (!Number.isInteger(dim) || d < 0 || d >= Math.max(x.ndim, 1)) {
    throw new RangeError(
      `${op}: Dimension out of range (expected to be in range of [${-Math.max(x.ndim, 1)}, ${Math.max(x.ndim, 1) - 1}], but got ${dim})`,
    );
  }
  return d;
}

/** Pieces of the given lengths along dim (their sum must be the dim's size). */
function pieces(x: Tensor, d: number, lengths: readonly number[]): Tensor[] {
  let start = 0;
  return scopedAll(() =>
    lengths.map((length) => {
      const piece = narrow(x, d, start, length);
      start += length;
      return piece;
    }),
  );
}

/**
 * torch.split: pieces of `size` along dim (the last one smaller), or of the listed sizes, which
 * must add up to the dim's size.
 */
export function split(x: Tensor, sizeOrSections: number | readonly number[], dim = 0): Tensor[] {
  if (x.ndim === 0) throw new ShapeError('split: expects at least a 1-dimensional tensor');
  const d = dimOf('split', x, dim);
  const size = x.shape[d];
  if (typeof sizeOrSections === 'number') {
    const n = sizeOrSections;
    if (!Number.isInteger(n) || n < 0 || (n === 0 && size !== 0)) {
      throw new RangeError(`split: split_size can only be 0 if dimension size is 0, but got ${n}`);
    }
    const count = n === 0 ? 1 : Math.max(1, Math.ceil(size / n));
    return pieces(
      x,
      d,
      Array.from({ length: count }, (_, i) => Math.min(n, size - i * n)),
    );
  }
  const total = sizeOrSections.reduce((a, b) => a + b, 0);
  if (total !== size || sizeOrSections.some((s) => !Number.isInteger(s) || s < 0)) {
    throw new ShapeError(
      `split_with_sizes expects split_sizes to sum exactly to ${size} (input tensor's size at dimension ${d}), but got split_sizes=[${sizeOrSections.join(', ')}]`,
    );
  }
  return pieces(x, d, sizeOrSections);
}

/** torch.chunk: at most `chunks` pieces of ceil(size / chunks) along dim. */
export function chunk(x: Tensor, chunks: number, dim = 0): Tensor[] {
  if (x.ndim === 0) throw new ShapeError('chunk expects at least a 1-dimensional tensor');
  if (!Number.isInteger(chunks) || chunks <= 0)
    throw new RangeError(`chunk expects \`chunks\` to be greater than 0, got: ${chunks}`);
  const d = dimOf('chunk', x, dim);
  const size = x.shape[d];
  return split(x, Math.max(1, Math.ceil(size / chunks)), d);
}

/** torch.unbind: the slices along dim, that dim removed. */
export function unbind(x: Tensor, dim = 0): Tensor[] {
  if (x.ndim === 0)
    throw new ShapeError('unbind: dimension specified as 0 but tensor has no dimensions');
  const d = dimOf('unbind', x, dim);
  return scopedAll(() => Array.from({ length: x.shape[d] }, (_, i) => select(x, d, i)));
}

/**
 * torch.tensor_split: `sections` pieces (the first size % sections one longer), or pieces cut
 * at the listed indices (clamped to the size, as Python slices).
 */
export function tensorSplit(
  x: Tensor,
  sectionsOrIndices: number | readonly number[],
  dim = 0,
): Tensor[] {
  if (x.ndim === 0)
    throw new ShapeError(
      'tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims',
    );
  const d = dimOf('tensor_split', x, dim);
  const size = x.shape[d];
  if (typeof sectionsOrIndices === 'number') {
    const n = sectionsOrIndices;
    if (!Number.isInteger(n) || n <= 0)
      throw new RangeError(`number of sections must be larger than 0, got ${n}`);
    const base = Math.floor(size / n);
    const extra = size % n;
    return pieces(
      x,
      d,
      Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0)),
    );
  }
  // Python slices x[:i1], x[i1:i2], …, x[ik:]: negative indices count from the end, bounds clamp.
  const clamp = (i: number): number => Math.min(Math.max(i < 0 ? i + size : i, 0), size);
  const cuts = [0, ...sectionsOrIndices.map(clamp), size];
  return scopedAll(() =>
    cuts.slice(1).map((end, i) => narrow(x, d, cuts[i], Math.max(0, end - cuts[i]))),
  );
}

/** Tensor.repeat(*sizes): the tensor tiled sizes[i] times along each dim (leading dims added). */
export function repeat(x: Tensor, sizes: readonly number[]): Tensor {
  if (sizes.length < x.ndim) {
    throw new ShapeError(
      `repeat: Number of dimensions of repeat dims (${sizes.length}) can not be smaller than number of dimensions of tensor (${x.ndim})`,
    );
  }
  if (sizes.some((s) => !Number.isInteger(s) || s < 0))
    throw new RangeError(
      `repeat: Trying to create tensor with negative dimension: [${sizes.join(', ')}]`,
    );
  const shape = [...Array<number>(sizes.length - x.ndim).fill(1), ...x.shape];
  return scoped(() => {
    // [s0, s1] → [1, s0, 1, s1] → expand [r0, s0, r1, s1] → [r0·s0, r1·s1].
    const interleaved = shape.flatMap((s) => [1, s]);
    const expanded = shape.flatMap((s, i) => [sizes[i], s]);
    const tiled = expand(reshape(x, interleaved), expanded);
    return reshape(
      tiled,
      shape.map((s, i) => s * sizes[i]),
    );
  });
}

/** Tensor.repeat_interleave(repeats, dim): each element repeated `repeats` times along dim
 * (over the flattened tensor when dim is omitted). */
export function repeatInterleave(x: Tensor, repeats: number, dim?: number): Tensor {
  if (!Number.isInteger(repeats) || repeats < 0)
    throw new RangeError(
      `repeat_interleave: repeats must have non-negative values, got ${repeats}`,
    );
  return scoped(() => {
    const input = dim === undefined ? flatten(x) : x;
    const d = dim === undefined ? 0 : dimOf('repeat_interleave', input, dim);
    const grown = unsqueeze(input, d + 1);
    const shape = [...grown.shape];
    shape[d + 1] = repeats;
    return flatten(expand(grown, shape), d, d + 1);
  });
}
