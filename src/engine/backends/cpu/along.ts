/**
 * CPU kernels along the last dim of a 2-D view: gather and scatter-add by an index of columns,
 * inclusive scans (cumsum, cumprod) and row sorts. Plain typed-array loops; scans of float32
 * accumulate in float64 as PyTorch's CPU kernels do.
 */
import type { OutView, ScanOp, View } from '../../backend';
import { arrayOf } from './buffer';

/** Element [r, c] of a 2-D view's array. */
function at(view: View, r: number, c: number): number {
  return view.offset + r * view.strides[0] + c * view.strides[1];
}

/** Column index[r, k], checked against `cols`. */
function columnAt(op: string, index: View, r: number, k: number, cols: number): number {
  const c = arrayOf(index)[at(index, r, k)];
  if (c < 0 || c >= cols)
    throw new RangeError(`${op}: index ${c} is out of bounds for dimension with size ${cols}`);
  return c;
}

export function gatherAlongKernel(x: View, index: View, out: OutView): void {
  const [rows, k] = index.shape;
  const cols = x.shape[1];
  const xa = arrayOf(x);
  const o = arrayOf(out);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < k; j++)
      o[out.offset + r * k + j] = xa[at(x, r, columnAt('gather', index, r, j, cols))];
  }
}

export function scatterAddAlongKernel(values: View, index: View, out: OutView): void {
  const [rows, k] = index.shape;
  const cols = out.shape[1];
  const va = arrayOf(values);
  const o = arrayOf(out);
  o.fill(0, out.offset, out.offset + rows * cols);
  const int = out.dtype === 'int32';
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < k; j++) {
      const dst = out.offset + r * cols + columnAt('scatter_add', index, r, j, cols);
      o[dst] = int ? (o[dst] + va[at(values, r, j)]) | 0 : o[dst] + va[at(values, r, j)];
    }
  }
}

export function scanKernel(op: ScanOp, x: View, reverse: boolean, out: OutView): void {
  const [rows, cols] = x.shape;
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const int = x.dtype === 'int32';
  for (let r = 0; r < rows; r++) {
    let acc = op === 'prod' ? 1 : 0;
    for (let i = 0; i < cols; i++) {
      const c = reverse ? cols - 1 - i : i;
      const v = xa[at(x, r, c)];
      if (int) acc = op === 'prod' ? Math.imul(acc, v) : (acc + v) | 0;
      else acc = op === 'prod' ? acc * v : acc + v;
      o[out.offset + r * cols + c] = acc;
    }
  }
}

export function sortRowsKernel(
  x: View,
  descending: boolean,
  values: OutView,
  indices: OutView,
): void {
  const [rows, cols] = x.shape;
  const xa = arrayOf(x);
  const va = arrayOf(values);
  const ia = arrayOf(indices);
  const row = new Float64Array(cols);
  const order = new Int32Array(cols);
  const sign = descending ? -1 : 1;
  // NaN after every number (before, descending), ties by column: a stable sort.
  const compare = (i: number, j: number): number => {
    const a = row[i];
    const b = row[j];
    const aNan = a !== a;
    const bNan = b !== b;
    if (aNan !== bNan) return (aNan ? 1 : -1) * sign;
    if (!aNan && a !== b) return (a < b ? -1 : 1) * sign;
    return i - j;
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      row[c] = xa[at(x, r, c)];
      order[c] = c;
    }
    order.sort(compare);
    const base = r * cols;
    for (let c = 0; c < cols; c++) {
      va[values.offset + base + c] = row[order[c]];
      ia[indices.offset + base + c] = order[c];
    }
  }
}
