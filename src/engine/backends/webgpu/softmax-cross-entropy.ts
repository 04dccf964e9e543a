/** Binds kernels/softmax-cross-entropy.wgsl: per-row loss, and optionally its logits gradient. */

import type { OutView, View } from '../../backend';
import crossEntropyWgsl from '../../../../kernels/softmax-cross-entropy.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { SOFTMAX_CROSS_ENTROPY } from './param-layouts';

const source = SOFTMAX_CROSS_ENTROPY.source(crossEntropyWgsl);

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
  ctx
    .params(SOFTMAX_CROSS_ENTROPY)
    .set('rows', rows)
    .set('cols', cols)
    .set('offset', logits.offset)
    .set('rowStride', logits.strides[0])
    .set('colStride', logits.strides[1])
    .set('labelsOffset', labels.offset)
    .set('labelsStride', labels.strides[0]);
  const outputs = grad ? [outputOf(losses), outputOf(grad)] : [outputOf(losses)];
  ctx.run(kernel, [...outputs, gpuOf(logits), gpuOf(labels)], grid64(rows));
}
