/**
 * Walking several same-shaped strided views at once, row by row: dimensions that are laid out
 * back to back in every operand are merged first, so contiguous and simply broadcast views become
 * one long row and the per-element work is a tight loop over (offset, stride) pairs.
 */

export interface Walk {
  /** Merged shape; the last dimension is the row. Never empty. */
  shape: number[];
  /** Merged strides, one array per operand. */
  strides: number[][];
}

export function coalesce(shape: readonly number[], strides: readonly (readonly number[])[]): Walk {
  const dims: number[] = [];
  for (let d = 0; d < shape.length; d++) if (shape[d] !== 1) dims.push(d);
  if (dims.length === 0) return { shape: [1], strides: strides.map(() => [0]) };
  const outShape = [shape[dims[0]]];
  const outStrides = strides.map((s) => [s[dims[0]]]);
  for (let i = 1; i < dims.length; i++) {
    const d = dims[i];
    const last = outShape.length - 1;
    const mergeable = strides.every((s, k) => outStrides[k][last] === s[d] * shape[d]);
    if (mergeable) {
      outShape[last] *= shape[d];
      strides.forEach((s, k) => (outStrides[k][last] = s[d]));
    } else {
      outShape.push(shape[d]);
      strides.forEach((s, k) => outStrides[k].push(s[d]));
    }
  }
  return { shape: outShape, strides: outStrides };
}

/**
 * Calls `row(n, pos)` once per row of the merged walk, with pos[k] the element offset of operand
 * k at the row's start; the row's inner strides are walk.strides[k][last]. `pos` is reused.
 */
export function forEachRow(
  walk: Walk,
  offsets: readonly number[],
  row: (n: number, pos: number[]) => void,
): void {
  const { shape, strides } = walk;
  const rank = shape.length;
  const ops = offsets.length;
  const n = shape[rank - 1];
  if (n === 0 || shape.some((d) => d === 0)) return;
  const pos = [...offsets];
  if (rank === 1) {
    row(n, pos);
    return;
  }
  const index = new Array<number>(rank - 1).fill(0);
  const base = [...offsets];
  for (;;) {
    for (let k = 0; k < ops; k++) pos[k] = base[k];
    row(n, pos);
    let d = rank - 2;
    for (; d >= 0; d--) {
      index[d]++;
      for (let k = 0; k < ops; k++) base[k] += strides[k][d];
      if (index[d] < shape[d]) break;
      for (let k = 0; k < ops; k++) base[k] -= strides[k][d] * shape[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}
