/** Binds kernels/scale-mask-softmax.wgsl: attention weights softmax(scale·s + m) and their gradient. */

import type { OutView, View } from '../../backend';
import wgsl from '../../../../kernels/scale-mask-softmax.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { SCALE_MASK_SOFTMAX } from './param-layouts';

const source = SCALE_MASK_SOFTMAX.source(wgsl);

/** out [A, B, L, C] = softmax(scale·scores + mask, causal) along C (see Kernels.scaleMaskSoftmax). */
export function scaleMaskSoftmax(
  ctx: KernelContext,
  scores: View,
  mask: View | null,
  out: OutView,
  scale: number,
  causal: boolean,
): void {
  const [A, B, L, C] = scores.shape;
  const rows = A * B * L;
  if (rows === 0 || C === 0) return;
  const flags: string[] = [];
  if (mask) flags.push(mask.dtype === 'int32' ? 'MASK_BOOL' : 'MASK_FLOAT');
  if (causal) flags.push('CAUSAL');
  const kernel = ctx.kernel(
    'scale-mask-softmax',
    flags.join(','),
    mask ? 'wrr' : 'wr',
    source,
    () => ({
      flags,
    }),
  );
  const ms = mask ? mask.strides : [0, 0, 0, 0];
  ctx
    .params(SCALE_MASK_SOFTMAX)
    .set('rows', rows)
    .set('cols', C)
    .set('queries', L)
    .set('inner', B)
    .set('scale', scale)
    .set('xOffset', scores.offset)
    .set('outOffset', out.offset)
    .set('mOffset', mask ? mask.offset : 0)
    .set('mStrideA', ms[0])
    .set('mStrideB', ms[1])
    .set('mStrideL', ms[2])
    .set('mStrideC', ms[3]);
  const buffers = [outputOf(out), gpuOf(scores)];
  if (mask) buffers.push(gpuOf(mask));
  ctx.run(kernel, buffers, grid64(rows));
}

/** out [R, C] = scale · y ⊙ (g − Σ(g⊙y)) per row. */
export function scaleMaskSoftmaxBackward(
  ctx: KernelContext,
  y: View,
  g: View,
  out: OutView,
  scale: number,
): void {
  const [rows, cols] = y.shape;
  if (rows === 0 || cols === 0) return;
  const kernel = ctx.kernel('scale-mask-softmax', 'backward', 'wrr', source, () => ({
    flags: ['BACKWARD'],
  }));
  ctx
    .params(SCALE_MASK_SOFTMAX)
    .set('rows', rows)
    .set('cols', cols)
    .set('scale', scale)
    .set('xOffset', y.offset)
    .set('gOffset', g.offset)
    .set('outOffset', out.offset);
  ctx.run(kernel, [outputOf(out), gpuOf(y), gpuOf(g)], grid64(rows));
}
