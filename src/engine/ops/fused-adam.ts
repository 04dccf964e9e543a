/**
 * A fused Adam step as an in-place op: one kernel updates a parameter and its two moment buffers
 * (Kernels.adam, which every backend has) instead of a dozen element-wise ops and temporaries per
 * parameter. Optimizer rules call it when every tensor is a plain contiguous block on one device;
 * otherwise (a strided view of a parameter) they compose ops.
 */
import type { AdamStep } from '../backend';
import type { Tensor } from '../tensor';
import { inputsDevice, kernelView } from './support';

export type { AdamStep } from '../backend';

const plain = (t: Tensor): boolean => t.isContiguous() && t.offset === 0 && t.dtype === 'float32';

/** Whether `adamStep` can run for these tensors (same device, shapes, plain layouts). */
export function canFuseAdam(
  param: Tensor,
  grad: Tensor,
  m: Tensor | undefined,
  v: Tensor | undefined,
): boolean {
  const device = param.deviceObject;
  const tensors = [param, grad, ...(m ? [m] : []), ...(v ? [v] : [])];
  return tensors.every((t) => t.deviceObject === device && plain(t) && t.numel() === param.numel());
}

/** p, m and v updated in place by one Adam step (bumps their storage versions, as copy_ does). */
export function adamStep(param: Tensor, grad: Tensor, m: Tensor, v: Tensor, step: AdamStep): void {
  const device = inputsDevice('adam', param, grad, m, v);
  if (param.numel() > 0) {
    const slot = {
      param: kernelView(param),
      grad: kernelView(grad),
      m: kernelView(m),
      v: kernelView(v),
    };
    device.backend.adam([slot], step);
  }
  for (const t of [param, m, v]) t.res.storage.version++;
}
