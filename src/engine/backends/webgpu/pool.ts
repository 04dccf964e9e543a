/** Binds kernels/pool.wgsl and kernels/pool-backward.wgsl: max pooling (plain and adaptive). */

import type { OutView, Pool2dGeometry, View } from '../../backend';
import backwardSource from '../../../../kernels/pool-backward.wgsl?raw';
import disjointSource from '../../../../kernels/pool-backward-disjoint.wgsl?raw';
import forwardSource from '../../../../kernels/pool.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import type { ParamBlock } from './uniforms';

function writeGeometry(params: ParamBlock, g: Pool2dGeometry): ParamBlock {
  return params
    .u32(0, g.batch)
    .u32(1, g.channels)
    .u32(2, g.inHeight)
    .u32(3, g.inWidth)
    .u32(4, g.outHeight)
    .u32(5, g.outWidth)
    .u32(6, g.kernelHeight)
    .u32(7, g.kernelWidth)
    .u32(8, g.strideH)
    .u32(9, g.strideW)
    .u32(10, g.padH)
    .u32(11, g.padW)
    .u32(12, g.adaptive ? 1 : 0);
}

export function maxPool2d(
  ctx: KernelContext,
  x: View,
  g: Pool2dGeometry,
  out: OutView,
  indices: OutView,
): void {
  const rows = g.batch * g.channels * g.outHeight;
  if (rows * g.outWidth === 0) return;
  // Four outputs of a row per invocation (pool.wgsl's RUN).
  const runs = Math.ceil(g.outWidth / 4);
  const kernel = ctx.kernel('max-pool2d', '', 'wwr', forwardSource, () => ({}));
  writeGeometry(ctx.queue.params(), g).i32(13, x.offset).list(14, x.strides, 4).u32(18, runs);
  ctx.run(kernel, [outputOf(out), outputOf(indices), gpuOf(x)], grid64(rows * runs));
}

export function maxPool2dBackward(
  ctx: KernelContext,
  gradOut: View,
  indices: View,
  g: Pool2dGeometry,
  out: OutView,
): void {
  const n = g.batch * g.channels * g.inHeight * g.inWidth;
  if (n === 0) return;
  // Disjoint windows: one invocation per window writes its pixels (no search for covering windows).
  const disjoint = g.adaptive
    ? g.inHeight % g.outHeight === 0 && g.inWidth % g.outWidth === 0
    : g.strideH === g.kernelHeight && g.strideW === g.kernelWidth && g.padH === 0 && g.padW === 0;
  if (disjoint) {
    const size = g.adaptive
      ? { ...g, kernelHeight: g.inHeight / g.outHeight, kernelWidth: g.inWidth / g.outWidth }
      : g;
    const kernel = ctx.kernel(
      'max-pool2d-backward-disjoint',
      '',
      'wrr',
      disjointSource,
      () => ({}),
    );
    // Four windows of a row per invocation (the kernel's RUN).
    const runs = Math.ceil(g.outWidth / 4);
    writeGeometry(ctx.queue.params(), size)
      .i32(13, gradOut.offset)
      .list(14, gradOut.strides, 4)
      .i32(18, indices.offset)
      .list(19, indices.strides, 4)
      .u32(23, runs);
    const rows = g.batch * g.channels * g.outHeight;
    ctx.run(kernel, [outputOf(out), gpuOf(gradOut), gpuOf(indices)], grid64(rows * runs));
    return;
  }
  const kernel = ctx.kernel('max-pool2d-backward', '', 'wrr', backwardSource, () => ({}));
  writeGeometry(ctx.queue.params(), g)
    .i32(13, gradOut.offset)
    .list(14, gradOut.strides, 4)
    .i32(18, indices.offset)
    .list(19, indices.strides, 4);
  ctx.run(kernel, [outputOf(out), gpuOf(gradOut), gpuOf(indices)], grid64(n));
}
