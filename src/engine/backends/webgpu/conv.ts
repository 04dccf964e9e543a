/** Binds kernels/im2col.wgsl and kernels/col2im.wgsl: convolution as matmul over unfolded windows. */

import type { Conv2dGeometry, OutView, View } from '../../backend';
import col2imSource from '../../../../kernels/col2im.wgsl?raw';
import im2colSource from '../../../../kernels/im2col.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import type { ParamBlock } from './uniforms';

function writeGeometry(params: ParamBlock, g: Conv2dGeometry): ParamBlock {
  return params
    .u32(0, g.batch)
    .u32(1, g.inChannels)
    .u32(2, g.inHeight)
    .u32(3, g.inWidth)
    .u32(4, g.kernelHeight)
    .u32(5, g.kernelWidth)
    .u32(6, g.strideH)
    .u32(7, g.strideW)
    .u32(8, g.padH)
    .u32(9, g.padW)
    .u32(10, g.dilationH)
    .u32(11, g.dilationW)
    .u32(12, g.outHeight)
    .u32(13, g.outWidth);
}

/** x: [N, C, H, W] → columns [N * outH * outW, C * kH * kW]. */
export function im2col(ctx: KernelContext, x: View, g: Conv2dGeometry, out: OutView): void {
  const windows = g.batch * g.outHeight * g.outWidth * g.inChannels;
  if (windows === 0 || g.kernelHeight * g.kernelWidth === 0) return;
  const kernel = ctx.kernel('im2col', '', 'wr', im2colSource, () => ({}));
  writeGeometry(ctx.queue.params(), g).i32(14, x.offset).list(15, x.strides, 4);
  ctx.run(kernel, [outputOf(out), gpuOf(x)], grid64(windows));
}

/** columns → [N, C, H, W], summing overlapping windows. */
export function col2im(ctx: KernelContext, columns: View, g: Conv2dGeometry, out: OutView): void {
  const n = g.batch * g.inChannels * g.inHeight * g.inWidth;
  if (n === 0) return;
  // Stride 1 (the common case) needs no division to find the windows covering a pixel.
  const flags = g.strideH === 1 && g.strideW === 1 ? ['STRIDE1'] : [];
  const kernel = ctx.kernel('col2im', flags.join(','), 'wr', col2imSource, () => ({ flags }));
  writeGeometry(ctx.queue.params(), g)
    .i32(14, columns.offset)
    .i32(15, columns.strides[0])
    .i32(16, columns.strides[1]);
  ctx.run(kernel, [outputOf(out), gpuOf(columns)], grid64(n));
}
