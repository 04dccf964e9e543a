/**
 * A fused Adam step as an in-place op: one kernel updates a parameter and its two moment buffers
 * (Backend.adam) instead of a dozen element-wise ops and temporaries per parameter. Optimizer
 * rules call it when the backend has the kernel and every tensor is a plain contiguous block;
 * otherwise they compose ops as before.
 */
import type { AdamStep } from '../backend';
import type { Tensor } from '../tensor';
import { inputsDevice, kernelView } from './support';

export type { AdamStep } from '../backend';

const plain = (t: Tensor): boolean => t.isContiguous() && t.offset === 0 && t.dtype === 'float32';

/** Whether `adamStep` can run for these tensors (same device, shapes, plain layouts, a kernel). */
export function canFuseAdam(
  param: Tensor,
  grad: Tensor,
  m: Tensor | undefined,
  v: Tensor | undefined,
): boolean {
  const device = param.deviceObject;
  if (!device.backend.adam) return false;
  const tensors = [param, grad, ...(m ? [m] : []), ...(v ? [v] : [])];
  return tensors.every((t) => t.deviceObject === device && plain(t) && t.numel() === param.numel());
}

/** p, m and v updated in place by one Adam step (bumps their storage versions, as copy_ does). */
export function adamStep(param: Tensor, grad: Tensor, m: Tensor, v: Tensor, step: AdamStep): void {
  const device = inputsDevice('adam', param, grad, m, v);
  const adam = device.backend.adam;
  if (!adam) throw new Error('adamStep: this backend has no fused Adam kernel');
  if (param.numel() > 0) {
    adam.call(
      device.backend,
      kernelView(param),
      kernelView(grad),
      kernelView(m),
      kernelView(v),
      step,
    );
  }
  for (const t of [param, m, v]) t.res.storage.version++;
}
