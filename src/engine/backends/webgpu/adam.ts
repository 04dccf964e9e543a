/** Binds kernels/adam.wgsl: one fused Adam step over a parameter, in place. */
import type { AdamStep, View } from '../../backend';
import source from '../../../../kernels/adam.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';

export function adam(
  ctx: KernelContext,
  param: View,
  grad: View,
  m: View,
  v: View,
  step: AdamStep,
): void {
  const count = param.shape.reduce((a, b) => a * b, 1);
  if (count === 0) return;
  if (grad.offset !== 0) throw new Error('adam: the gradient must start at element 0');
  const kernel = ctx.kernel('adam', '', 'wwwr', source, () => ({}));
  ctx.queue
    .params()
    .u32(0, count)
    .f32(1, step.beta1)
    .f32(2, step.beta2)
    .f32(3, step.stepSize)
    .f32(4, step.vScale)
    .f32(5, step.eps)
    .f32(6, step.weightDecay)
    .u32(7, step.maximize ? 1 : 0);
  ctx.run(kernel, [outputOf(param), outputOf(m), outputOf(v), gpuOf(grad)], grid64(count));
}
