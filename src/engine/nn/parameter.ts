/**
 * nn.Parameter: a tensor that a Module registers as trainable. It owns its memory (contiguous, at
 * offset 0, so `module.to(device)` can swap the memory under it), requires grad by default, and
 * is persistent: the engine's step sweeps never release it.
 */
import { bindArgs, optional, asBool } from '../args';
import { noGrad } from '../autograd';
import type { Device } from '../devices/device';
import { clone } from '../ops/shape-ops';
import { toDevice } from '../ops/transfer';
import { Tensor } from '../tensor';

function ownsWholeStorage(t: Tensor): boolean {
  return t.isContiguous() && t.offset === 0 && t.res.storage.bytes === t.numel() * 4;
}

export class Parameter extends Tensor {
  /** `new nn.Parameter(tensor)`, `new nn.Parameter(tensor, false)` or `{ requiresGrad: false }`. */
  constructor(data: Tensor, requiresGrad?: boolean | { requiresGrad?: boolean });
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'Parameter', params: ['data', 'requiresGrad'] }, args);
    if (!(a.data instanceof Tensor))
      throw new TypeError('Parameter: data must be a Tensor (e.g. torch.randn(3, 2))');
    const data = a.data;
    // A view of a larger tensor is copied: the parameter must own all of its memory.
    const source = ownsWholeStorage(data) ? data.detach() : clone(data.detach());
    super(source.res.storage, source.shape, source.strides, 0, source.dtype);
    source.dispose();
    this.requiresGrad = optional(a.requiresGrad, asBool, 'Parameter: requiresGrad', true);
    this.keep();
  }
}

/**
 * Moves a parameter's (or buffer's) memory to the memory of `source` in place, so every holder
 * of the parameter (optimizers, the user's variables) sees the move, as PyTorch's
 * `param.data = …` does. `source` must be contiguous at offset 0 with the same shape.
 */
export function adoptStorage(target: Tensor, source: Tensor): void {
  if (!ownsWholeStorage(source) || source.shape.join() !== target.shape.join()) {
    throw new Error('adoptStorage: the new memory must be a contiguous tensor of the same shape');
  }
  const next = source.res.storage;
  const previous = target.res.storage;
  if (next === previous) return;
  next.retain();
  // The new memory is a parameter's now: pinned on its device like the memory it replaces.
  if (target.res.persistent) next.pinned = true;
  target.res.storage = next;
  previous.release();
}

/**
 * Moves a parameter's (or buffer's) memory, and its gradient, to `target` in place: the same
 * Tensor object, so the module, the optimizer and the user's variables all see the move, as
 * PyTorch's `module.to(device)` does. Module.to and the Python faces' `Module.to` both use it.
 */
export function moveInPlace(t: Tensor, target: Device): void {
  if (t.deviceObject === target) return;
  noGrad(() => {
    const grad = t.gradInternal;
    const view = t.detach();
    const moved = toDevice(view, target);
    view.dispose();
    adoptStorage(t, moved);
    moved.dispose();
    if (grad !== null) t.setGradInternal(toDevice(grad, target));
  });
}
