/**
 * Binds kernels/index-select.wgsl and kernels/index-add.wgsl: embedding lookup and its backward
 * (a zero fill, then an atomic compare-and-swap scatter-add; see index-add.wgsl for why).
 */

import type { OutView, View } from '../../backend';
import addSource from '../../../../kernels/index-add.wgsl?raw';
import selectSource from '../../../../kernels/index-select.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { fill } from './elementwise';
import { gpuOf, outputOf } from './gpu-buffer';
import { wgslType } from './wgsl-types';

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
  ctx.queue
    .params()
    .u32(0, n)
    .u32(1, width)
    .i32(2, table.offset)
    .i32(3, table.strides[0])
    .i32(4, table.strides[1])
    .i32(5, index.offset)
    .i32(6, index.strides[0])
    .u32(7, vocabulary);
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
  ctx.queue
    .params()
    .u32(0, n)
    .u32(1, width)
    .i32(2, values.offset)
    .i32(3, values.strides[0])
    .i32(4, values.strides[1])
    .i32(5, index.offset)
    .i32(6, index.strides[0])
    .u32(7, out.shape[0]);
  ctx.run(kernel, [outputOf(out), gpuOf(values), gpuOf(index)], grid64(n * width));
}
