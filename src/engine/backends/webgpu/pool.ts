/** Binds kernels/pool.wgsl and kernels/pool-backward.wgsl: max pooling (plain and adaptive). */

import type { OutView, Pool2dGeometry, View } from '../../backend';
import backwardWgsl from '../../../../kernels/pool-backward.wgsl?raw';
import disjointWgsl from '../../../../kernels/pool-backward-disjoint.wgsl?raw';
import forwardWgsl from '../../../../kernels/pool.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { POOL, POOL_BACKWARD } from './param-layouts';
import type { ParamWriter } from './params';

const backwardSource = POOL_BACKWARD.source(backwardWgsl);
const disjointSource = POOL_BACKWARD.source(disjointWgsl);
const forwardSource = POOL.source(forwardWgsl);

/** The geometry fields both layouts start with. */
function writeGeometry<
  W extends ParamWriter<typeof POOL.spec> | ParamWriter<typeof POOL_BACKWARD.spec>,
>(params: W, g: Pool2dGeometry): W {
  params
    .set('batch', g.batch)
    .set('channels', g.channels)
    .set('height', g.inHeight)
    .set('width', g.inWidth)
    .set('outH', g.outHeight)
    .set('outW', g.outWidth)
    .set('kernelH', g.kernelHeight)
    .set('kernelW', g.kernelWidth)
    .set('strideH', g.strideH)
    .set('strideW', g.strideW)
    .set('padH', g.padH)
    .set('padW', g.padW)
    .set('adaptive', g.adaptive ? 1 : 0);
  return params;
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
  const pairs =
    !g.adaptive &&
    [g.kernelHeight, g.kernelWidth, g.strideH, g.strideW].every((v) => v === 2) &&
    g.padH === 0 &&
    g.padW === 0;
  const flags = pairs ? ['WINDOW2X2'] : [];
  const kernel = ctx.kernel('max-pool2d', flags.join(), 'wwr', forwardSource, () => ({ flags }));
  writeGeometry(ctx.params(POOL), g)
    .set('xOffset', x.offset)
    .list('xStrides', x.strides)
    .set('runs', runs);
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
    const pairs =
      size.kernelHeight === 2 &&
      size.kernelWidth === 2 &&
      g.inHeight === 2 * g.outHeight &&
      g.inWidth === 2 * g.outWidth;
    const flags = pairs ? ['WINDOW2X2'] : [];
    const kernel = ctx.kernel(
      'max-pool2d-backward-disjoint',
      flags.join(),
      'wrr',
      disjointSource,
      () => ({ flags }),
    );
    // Four windows of a row per invocation (the kernel's RUN).
    const runs = Math.ceil(g.outWidth / 4);
    writeGeometry(ctx.params(POOL_BACKWARD), size)
      .set('gradOffset', gradOut.offset)
      .list('gradStrides', gradOut.strides)
      .set('indicesOffset', indices.offset)
      .list('indicesStrides', indices.strides)
      .set('runs', runs);
    const rows = g.batch * g.channels * g.outHeight;
    ctx.run(kernel, [outputOf(out), gpuOf(gradOut), gpuOf(indices)], grid64(rows * runs));
    return;
  }
  const kernel = ctx.kernel('max-pool2d-backward', '', 'wrr', backwardSource, () => ({}));
  writeGeometry(ctx.params(POOL_BACKWARD), g)
    .set('gradOffset', gradOut.offset)
    .list('gradStrides', gradOut.strides)
    .set('indicesOffset', indices.offset)
    .list('indicesStrides', indices.strides);
  ctx.run(kernel, [outputOf(out), gpuOf(gradOut), gpuOf(indices)], grid64(n));
}
