/** Binds kernels/im2col.wgsl and kernels/col2im.wgsl: convolution as matmul over unfolded windows. */

import type { Conv2dGeometry, OutView, View } from '../../backend';
import col2imWgsl from '../../../../kernels/col2im.wgsl?raw';
import im2colWgsl from '../../../../kernels/im2col.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { COL2IM, IM2COL } from './param-layouts';
import type { ParamWriter } from './params';

const col2imSource = COL2IM.source(col2imWgsl);
const im2colSource = IM2COL.source(im2colWgsl);

/** The geometry fields both layouts start with. */
function writeGeometry<W extends ParamWriter<typeof IM2COL.spec> | ParamWriter<typeof COL2IM.spec>>(
  params: W,
  g: Conv2dGeometry,
): W {
  params
    .set('batch', g.batch)
    .set('channels', g.inChannels)
    .set('height', g.inHeight)
    .set('width', g.inWidth)
    .set('kernelH', g.kernelHeight)
    .set('kernelW', g.kernelWidth)
    .set('strideH', g.strideH)
    .set('strideW', g.strideW)
    .set('padH', g.padH)
    .set('padW', g.padW)
    .set('dilationH', g.dilationH)
    .set('dilationW', g.dilationW)
    .set('outH', g.outHeight)
    .set('outW', g.outWidth);
  return params;
}

/** x: [N, C, H, W] → columns [N * outH * outW, C * kH * kW]. */
export function im2col(ctx: KernelContext, x: View, g: Conv2dGeometry, out: OutView): void {
  const windows = g.batch * g.outHeight * g.outWidth * g.inChannels;
  if (windows === 0 || g.kernelHeight * g.kernelWidth === 0) return;
  const kernel = ctx.kernel('im2col', '', 'wr', im2colSource, () => ({}));
  writeGeometry(ctx.params(IM2COL), g).set('xOffset', x.offset).list('xStrides', x.strides);
  ctx.run(kernel, [outputOf(out), gpuOf(x)], grid64(windows));
}

/** columns → [N, C, H, W], summing overlapping windows. */
export function col2im(ctx: KernelContext, columns: View, g: Conv2dGeometry, out: OutView): void {
  const n = g.batch * g.inChannels * g.inHeight * g.inWidth;
  if (n === 0) return;
  // Stride 1 (the common case) needs no division to find the windows covering a pixel.
  const flags = g.strideH === 1 && g.strideW === 1 ? ['STRIDE1'] : [];
  const kernel = ctx.kernel('col2im', flags.join(','), 'wr', col2imSource, () => ({ flags }));
  writeGeometry(ctx.params(COL2IM), g)
    .set('colsOffset', columns.offset)
    .set('colsRowStride', columns.strides[0])
    .set('colsColStride', columns.strides[1]);
  ctx.run(kernel, [outputOf(out), gpuOf(columns)], grid64(n));
}
