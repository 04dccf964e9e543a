/** CPU row kernels: softmax, column gather/scatter by label, and row gather/scatter by index. */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';

/** Reads element i of a 1-D int32 index view and checks it against `limit`. */
function indexAt(index: View, i: number, limit: number, what: string): number {
  const v = arrayOf(index)[index.offset + i * index.strides[0]];
  if (v < 0 || v >= limit) {
    throw new RangeError(`${what} ${v} is out of range: expected a value in [0, ${limit - 1}]`);
  }
  return v;
}

export function softmaxKernel(x: View, out: OutView, log: boolean): void {
  const [rows, cols] = x.shape;
  const [rs, cs] = x.strides;
  const xa = arrayOf(x);
  const o = arrayOf(out);
  for (let r = 0; r < rows; r++) {
    const base = x.offset + r * rs;
    const ob = out.offset + r * cols;
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, xa[base + c * cs]);
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp(xa[base + c * cs] - max);
    if (log) {
      const logSum = Math.log(sum) + max;
      for (let c = 0; c < cols; c++) o[ob + c] = xa[base + c * cs] - logSum;
    } else {
      for (let c = 0; c < cols; c++) o[ob + c] = Math.exp(xa[base + c * cs] - max) / sum;
    }
  }
}

export function gatherColumnsKernel(x: View, index: View, out: OutView): void {
  const [rows, cols] = x.shape;
  const xa = arrayOf(x);
  const o = arrayOf(out);
  for (let r = 0; r < rows; r++) {
    const c = indexAt(index, r, cols, 'label');
    o[out.offset + r] = xa[x.offset + r * x.strides[0] + c * x.strides[1]];
  }
}

export function scatterColumnsKernel(values: View, index: View, out: OutView): void {
  const [rows, cols] = out.shape;
  const va = arrayOf(values);
  const o = arrayOf(out);
  o.fill(0, out.offset, out.offset + rows * cols);
  for (let r = 0; r < rows; r++) {
    const c = indexAt(index, r, cols, 'label');
    o[out.offset + r * cols + c] = va[values.offset + r * values.strides[0]];
  }
}

export function indexSelectKernel(table: View, index: View, out: OutView): void {
  const [vocab, dim] = table.shape;
  const n = index.shape[0];
  const ta = arrayOf(table);
  const o = arrayOf(out);
  const [ts0, ts1] = table.strides;
  for (let i = 0; i < n; i++) {
    const row = indexAt(index, i, vocab, 'index');
    const src = table.offset + row * ts0;
    const dst = out.offset + i * dim;
    for (let d = 0; d < dim; d++) o[dst + d] = ta[src + d * ts1];
  }
}

export function indexAddKernel(values: View, index: View, out: OutView): void {
  const [vocab, dim] = out.shape;
  const n = index.shape[0];
  const va = arrayOf(values);
  const o = arrayOf(out);
  const [vs0, vs1] = values.strides;
  o.fill(0, out.offset, out.offset + vocab * dim);
  for (let i = 0; i < n; i++) {
    const row = indexAt(index, i, vocab, 'index');
    const src = values.offset + i * vs0;
    const dst = out.offset + row * dim;
    for (let d = 0; d < dim; d++) o[dst + d] += va[src + d * vs1];
  }
}
