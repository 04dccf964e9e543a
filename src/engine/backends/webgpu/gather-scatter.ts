/** Binds kernels/gather-scatter.wgsl: gatherColumns and scatterColumns (cross-entropy's picks). */

import type { OutView, View } from '../../backend';
import source from '../../../../kernels/gather-scatter.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { wgslType } from './wgsl-types';

function checkIndex(kernel: string, index: View): void {
  if (index.dtype !== 'int32') throw new Error(`${kernel}: index must be int32`);
}

/** out[r] = x[r, index[r]] for x: [R, C]. */
export function gatherColumns(ctx: KernelContext, x: View, index: View, out: OutView): void {
  checkIndex('gatherColumns', index);
  const [rows, cols] = x.shape;
  if (rows === 0) return;
  const type = wgslType(x.dtype);
  const kernel = ctx.kernel('gather-columns', type, 'wrr', source, () => ({ values: { T: type } }));
  ctx.queue
    .params()
    .u32(0, rows)
    .u32(1, cols)
    .i32(2, x.offset)
    .i32(3, x.strides[0])
    .i32(4, x.strides[1])
    .i32(5, index.offset)
    .i32(6, index.strides[0]);
  ctx.run(kernel, [outputOf(out), gpuOf(x), gpuOf(index)], grid64(rows));
}

/** out[r, c] = c == index[r] ? values[r] : 0 for out: [R, C]. */
export function scatterColumns(ctx: KernelContext, values: View, index: View, out: OutView): void {
  checkIndex('scatterColumns', index);
  const [rows, cols] = out.shape;
  if (rows * cols === 0) return;
  const type = wgslType(values.dtype);
  const kernel = ctx.kernel('scatter-columns', type, 'wrr', source, () => ({
    flags: ['SCATTER'],
    values: { T: type },
  }));
  ctx.queue
    .params()
    .u32(0, rows)
    .u32(1, cols)
    .i32(2, values.offset)
    .i32(3, values.strides[0])
    .i32(5, index.offset)
    .i32(6, index.strides[0]);
  ctx.run(kernel, [outputOf(out), gpuOf(values), gpuOf(index)], grid64(rows * cols));
}
