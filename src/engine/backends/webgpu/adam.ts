/** Binds kernels/adam.wgsl: one fused Adam step over a parameter, in place. */
import type { AdamStep, View } from '../../backend';
import adamWgsl from '../../../../kernels/adam.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { ADAM } from './param-layouts';

const source = ADAM.source(adamWgsl);

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
  ctx
    .params(ADAM)
    .set('count', count)
    .set('beta1', step.beta1)
    .set('beta2', step.beta2)
    .set('stepSize', step.stepSize)
    .set('vScale', step.vScale)
    .set('eps', step.eps)
    .set('weightDecay', step.weightDecay)
    .set('maximize', step.maximize ? 1 : 0);
  ctx.run(kernel, [outputOf(param), outputOf(m), outputOf(v), gpuOf(grad)], grid64(count));
}
