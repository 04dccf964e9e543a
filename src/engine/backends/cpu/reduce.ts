/** CPU reductions over the trailing dimensions of a strided view, accumulated in float64. */
import type { OutView, ReduceOp, View } from '../../backend';
import { arrayOf } from './buffer';
import { coalesce, forEachRow } from './strided';

type Arr = Float32Array | Int32Array;

/** Reduces one block; argmax/argmin return the row-major position inside the block. */
function reduceBlock(
  op: ReduceOp,
  x: Arr,
  walk: ReturnType<typeof coalesce>,
  offset: number,
): number {
  const last = walk.shape.length - 1;
  const xs = walk.strides[0][last];
  let position = 0;
  switch (op) {
    case 'sum': {
      let acc = 0;
      forEachRow(walk, [offset], (n, pos) => {
        for (let k = 0, i = pos[0]; k < n; k++, i += xs) acc += x[i];
      });
      return acc;
    }
    case 'max':
    case 'min': {
      const sign = op === 'max' ? 1 : -1;
      let best = -Infinity;
      forEachRow(walk, [offset], (n, pos) => {
        for (let k = 0, i = pos[0]; k < n; k++, i += xs) {
          const v = sign * x[i];
          if (v > best || v !== v) best = v; // NaN propagates, as in PyTorch
        }
      });
      return sign * best;
    }
    case 'argmax':
    case 'argmin': {
      const sign = op === 'argmax' ? 1 : -1;
      let best = -Infinity;
      let bestAt = 0;
      let nan = false;
      forEachRow(walk, [offset], (n, pos) => {
        for (let k = 0, i = pos[0]; k < n; k++, i += xs, position++) {
          const v = sign * x[i];
          if (nan) continue;
          if (v !== v) {
            nan = true;
            bestAt = position;
          } else if (v > best) {
            best = v;
            bestAt = position;
          }
        }
      });
      return bestAt;
    }
  }
}

export function reduceKernel(op: ReduceOp, x: View, reducedDims: number, out: OutView): void {
  const rank = x.shape.length;
  const keep = rank - reducedDims;
  const block = coalesce(x.shape.slice(keep), [x.strides.slice(keep)]);
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const outerShape = x.shape.slice(0, keep);
  const outer = coalesce(outerShape, [x.strides.slice(0, keep)]);
  const xs = outer.strides[0][outer.shape.length - 1];
  let oi = 0;
  forEachRow(outer, [x.offset], (n, pos) => {
    for (let k = 0, base = pos[0]; k < n; k++, base += xs)
      o[oi++] = reduceBlock(op, xa, block, base);
  });
}
