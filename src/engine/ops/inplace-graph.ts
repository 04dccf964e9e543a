/**
 * In-place ops inside a recorded graph (`out += identity` in a residual block, `y.mul_(2)`,
 * `a.add_(w)` with w requiring grad), as PyTorch records them: the tensor takes the op's result
 * as its value and the op's node as its grad_fn, so the backward flows through the op into the
 * tensor's old history. Rather than overwriting the old values, which the graph may have saved
 * (PyTorch then refuses the backward), the tensor moves onto the result's fresh storage and the
 * old storage lives on as long as the graph holds it. That needs the tensor to be the only
 * visible holder of its storage (a view, or a viewed tensor, would not see the move), contiguous
 * and of the result's shape and dtype; otherwise the values are copied as outside a graph, and a
 * tensor that requires grad is refused (inplace.ts).
 */
import { isGradEnabled } from '../autograd';
import { sharedWithVisible } from '../memory';
import { shapesEqual } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { cast } from './cast';
import { copyInto } from './inplace';
import { clone } from './shape-ops';
import { isTensor, scoped } from './support';
import { toDevice } from './transfer';

function canMove(target: Tensor, result: Tensor): boolean {
  return (
    result !== target &&
    !(target.isLeaf && target.requiresGrad) &&
    target.dtype === result.dtype &&
    shapesEqual(target.shape, result.shape) &&
    target.isContiguous() &&
    target.offset === 0 &&
    result.isContiguous() &&
    result.offset === 0 &&
    result.deviceObject === target.deviceObject &&
    !target.isDisposed &&
    !sharedWithVisible(target.res.storage, target)
  );
}

/** target.op_(…): target becomes `result` (computed out of place from it), in place. */
export function updateInPlace(target: Tensor, result: Tensor): void {
  const recorded = isGradEnabled() && (target.requiresGrad || result.requiresGrad);
  if (!recorded || !canMove(target, result)) {
    copyInto(target, result);
    return;
  }
  const res = target.res;
  const storage = result.res.storage;
  storage.retain();
  res.storage.release();
  res.storage = storage;
  const old = res.node;
  res.node = null;
  if (result.res.node !== null) target.attachNode(result.res.node);
  old?.unref();
  result.dispose();
}

/**
 * target.copy_(src) where src requires grad (`buffer.copy_(x * 2)`): as PyTorch, the gradient
 * flows to src (and none to the target's old history), so the target takes a copy of src with
 * its node. Otherwise, and where the target cannot move, values are copied (inplace.ts).
 */
export function copyInPlace(target: Tensor, src: Tensor | number): void {
  if (!isTensor(src) || !isGradEnabled() || !src.requiresGrad) {
    copyInto(target, src);
    return;
  }
  const result = scoped(() => {
    const here =
      src.deviceObject === target.deviceObject ? src : toDevice(src, target.deviceObject);
    return clone(cast(expand(here, target.shape), target.dtype));
  });
  updateInPlace(target, result);
}

/**
 * t.detach_(): t leaves the graph as a leaf that does not require grad (truncated backpropagation
 * through time: `hidden.detach_()`). A view's history is its base's, so views are refused, as
 * PyTorch refuses them.
 */
export function detachInPlace(t: Tensor): void {
  if (sharedWithVisible(t.res.storage, t) && !t.isLeaf) {
    throw new Error(
      "detach_: Can't detach views in-place. Use detach() instead (this tensor shares its storage with another).",
    );
  }
  const old = t.res.node;
  t.res.node = null;
  old?.unref();
  t.requiresGrad = false;
}
