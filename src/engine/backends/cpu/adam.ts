/** The CPU backend's fused Adam step (Backend.adam): one loop over the parameter, in place. */
import type { AdamStep, View } from '../../backend';
import { asCpuBuffer } from './buffer';

export function adamKernel(param: View, grad: View, m: View, v: View, step: AdamStep): void {
  const count = param.shape.reduce((a, b) => a * b, 1);
  const p = asCpuBuffer(param.buffer).f32;
  const g = asCpuBuffer(grad.buffer).f32;
  const mm = asCpuBuffer(m.buffer).f32;
  const vv = asCpuBuffer(v.buffer).f32;
  const [po, go, mo, vo] = [param.offset, grad.offset, m.offset, v.offset];
  const { beta1, beta2, stepSize, vScale, eps, weightDecay } = step;
  const sign = step.maximize ? -1 : 1;
  for (let i = 0; i < count; i++) {
    const pi = p[po + i];
    const gi = sign * g[go + i] + weightDecay * pi;
    const mi = mm[mo + i] + (gi - mm[mo + i]) * (1 - beta1);
    const vi = vv[vo + i] * beta2 + gi * gi * (1 - beta2);
    mm[mo + i] = mi;
    vv[vo + i] = vi;
    p[po + i] = pi - stepSize * (mi / (Math.sqrt(vi) * vScale + eps));
  }
}
