/** Binds kernels/softmax-cross-entropy.wgsl: per-row loss, and optionally its logits gradient. */

import type { OutView, View } from '../../backend';
import source from '../../../../kernels/softmax-cross-entropy.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';

export function softmaxCrossEntropy(
  ctx: KernelContext,
  logits: View,
  labels: View,
  losses: OutView,
  grad: OutView | null,
): void {
  if (labels.dtype !== 'int32') throw new Error('softmaxCrossEntropy: labels must be int32');
  const [rows, cols] = logits.shape;
  if (rows === 0) return;
  const kernel = grad
    ? ctx.kernel('softmax-cross-entropy', 'grad', 'wwrr', source, () => ({ flags: ['GRAD'] }))
    : ctx.kernel('softmax-cross-entropy', '', 'wrr', source, () => ({}));
  ctx.queue
    .params()
    .u32(0, rows)
    .u32(1, cols)
    .i32(2, logits.offset)
    .i32(3, logits.strides[0])
    .i32(4, logits.strides[1])
    .i32(5, labels.offset)
    .i32(6, labels.strides[0]);
  const outputs = grad ? [outputOf(losses), outputOf(grad)] : [outputOf(losses)];
  ctx.run(kernel, [...outputs, gpuOf(logits), gpuOf(labels)], grid64(rows));
}
