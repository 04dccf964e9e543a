/** Binds kernels/norm.wgsl: normalisation of [A, C, B] per channel, and its input gradient. */

import type { OutView, View } from '../../backend';
import normWgsl from '../../../../kernels/norm.wgsl?raw';
import { grid, grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { NORM } from './param-layouts';

const source = NORM.source(normWgsl);

/**
 * A workgroup per channel for long slices (BatchNorm's N·H·W values per channel), an invocation
 * per channel for short ones (LayerNorm's rows): on CPU emulations a workgroup costs tens of
 * microseconds, so thousands of short rows must not each take one.
 */
function workgroupPerChannel(channels: number, count: number): boolean {
  return count >= 1024 || (count >= 128 && channels < 256);
}

function dispatch(
  ctx: KernelContext,
  backward: boolean,
  shape: readonly number[],
  eps: number,
  buffers: GPUBuffer[],
  offsets: { x: number; y?: number; variance?: number },
): void {
  const [outer, channels, inner] = shape;
  if (outer * channels * inner === 0) return;
  const wide = workgroupPerChannel(channels, outer * inner);
  const flags = [...(backward ? ['BACKWARD'] : []), ...(wide ? ['WORKGROUP'] : [])];
  const signature = backward ? 'wrrr' : 'wwwr';
  const kernel = ctx.kernel('norm', flags.join(','), signature, source, () => ({ flags }));
  ctx
    .params(NORM)
    .set('outer', outer)
    .set('channels', channels)
    .set('inner', inner)
    .set('eps', eps)
    .set('xOffset', offsets.x)
    .set('yOffset', offsets.y ?? 0)
    .set('varOffset', offsets.variance ?? 0);
  ctx.run(kernel, buffers, wide ? grid(channels) : grid64(channels));
}

export function normalizeSlices(
  ctx: KernelContext,
  x: View,
  y: OutView,
  mean: OutView,
  variance: OutView,
  eps: number,
): void {
  dispatch(ctx, false, x.shape, eps, [outputOf(y), outputOf(mean), outputOf(variance), gpuOf(x)], {
    x: x.offset,
  });
}

export function normalizeSlicesBackward(
  ctx: KernelContext,
  g: View,
  y: View,
  variance: View,
  dx: OutView,
  eps: number,
): void {
  dispatch(ctx, true, g.shape, eps, [outputOf(dx), gpuOf(g), gpuOf(y), gpuOf(variance)], {
    x: g.offset,
    y: y.offset,
    variance: variance.offset,
  });
}
