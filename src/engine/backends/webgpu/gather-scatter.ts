/** Binds kernels/gather-scatter.wgsl: gatherColumns and scatterColumns (cross-entropy's picks). */

import type { OutView, View } from '../../backend';
import gatherScatterWgsl from '../../../../kernels/gather-scatter.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { GATHER_SCATTER } from './param-layouts';
import { wgslType } from './wgsl-types';

const source = GATHER_SCATTER.source(gatherScatterWgsl);

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
  ctx
    .params(GATHER_SCATTER)
    .set('rows', rows)
    .set('cols', cols)
    .set('xOffset', x.offset)
    .set('xRowStride', x.strides[0])
    .set('xColStride', x.strides[1])
    .set('indexOffset', index.offset)
    .set('indexStride', index.strides[0]);
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
  ctx
    .params(GATHER_SCATTER)
    .set('rows', rows)
    .set('cols', cols)
    .set('xOffset', values.offset)
    .set('xRowStride', values.strides[0])
    .set('indexOffset', index.offset)
    .set('indexStride', index.strides[0]);
  ctx.run(kernel, [outputOf(out), gpuOf(values), gpuOf(index)], grid64(rows * cols));
}
