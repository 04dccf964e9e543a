/**
 * Binds kernels/index-select.wgsl and kernels/index-add.wgsl: embedding lookup and its backward
 * (a zero fill, then an atomic compare-and-swap scatter-add; see index-add.wgsl for why).
 */

import type { OutView, View } from '../../backend';
import addWgsl from '../../../../kernels/index-add.wgsl?raw';
import selectWgsl from '../../../../kernels/index-select.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { fill } from './elementwise';
import { gpuOf, outputOf } from './gpu-buffer';
import { INDEX_ROWS } from './param-layouts';
import { wgslType } from './wgsl-types';

const addSource = INDEX_ROWS.source(addWgsl);
const selectSource = INDEX_ROWS.source(selectWgsl);

/** out[i, :] = table[index[i], :] for table: [V, D], index int32 [N], out: [N, D]. */
export function indexSelect(ctx: KernelContext, table: View, index: View, out: OutView): void {
  if (index.dtype !== 'int32') throw new Error('indexSelect: index must be int32');
  const [vocabulary, width] = table.shape;
  const n = index.shape[0];
  if (n * width === 0) return;
  const type = wgslType(table.dtype);
  const kernel = ctx.kernel('index-select', type, 'wrr', selectSource, () => ({
    values: { T: type },
  }));
  ctx
    .params(INDEX_ROWS)
    .set('n', n)
    .set('width', width)
    .set('offset', table.offset)
    .set('rowStride', table.strides[0])
    .set('colStride', table.strides[1])
    .set('indexOffset', index.offset)
    .set('indexStride', index.strides[0])
    .set('tableRows', vocabulary);
  ctx.run(kernel, [outputOf(out), gpuOf(table), gpuOf(index)], grid64(n * width));
}

/** out [V, D] = 0, then out[index[i], :] += values[i, :] for values: [N, D]. */
export function indexAdd(ctx: KernelContext, values: View, index: View, out: OutView): void {
  if (index.dtype !== 'int32') throw new Error('indexAdd: index must be int32');
  fill(ctx, out, 0);
  const [n, width] = values.shape;
  if (n * width === 0) return;
  const int = values.dtype === 'int32';
  const kernel = ctx.kernel('index-add', int ? 'i32' : 'f32', 'wrr', addSource, () => ({
    flags: int ? ['INT'] : [],
  }));
  ctx
    .params(INDEX_ROWS)
    .set('n', n)
    .set('width', width)
    .set('offset', values.offset)
    .set('rowStride', values.strides[0])
    .set('colStride', values.strides[1])
    .set('indexOffset', index.offset)
    .set('indexStride', index.strides[0])
    .set('tableRows', out.shape[0]);
  ctx.run(kernel, [outputOf(out), gpuOf(values), gpuOf(index)], grid64(n * width));
}
