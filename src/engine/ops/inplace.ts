/**
 * In-place writes into an existing tensor's memory (optimizer updates, gradient accumulation,
 * zero_/fill_/copy_). They bump the storage version, so autograd can refuse a backward that would
 * read an overwritten saved tensor, and they refuse to overwrite a tensor that requires grad while
 * a graph is being recorded, as PyTorch does for leaves.
 */
import { isGradEnabled } from '../autograd';
import { broadcastShapes, formatShape, shapesEqual } from '../shape';
import type { Tensor } from '../tensor';
import { broadcastView, emptyTensor, inputsDevice, isTensor, kernelView } from './support';
import { toDevice } from './transfer';

function checkTarget(op: string, target: Tensor): void {
  if (isGradEnabled() && target.requiresGrad) {
    throw new Error(
      target.isLeaf
        ? `${op}: a leaf Variable that requires grad is being used in an in-place operation. ` +
            `Wrap parameter updates in torch.noGrad(() => { ... }).`
        : `${op}: in-place operations on tensors that are part of a recorded graph are not ` +
            `supported; use the out-of-place op (e.g. add instead of add_).`,
    );
  }
  if (target.strides.some((s, i) => s === 0 && target.shape[i] !== 1)) {
    throw new Error(`${op}: cannot write in place into a broadcast (expanded) tensor`);
  }
}

/** Whether kernels may write the target as a fresh output (contiguous, at the buffer's start). */
function isPlainOutput(t: Tensor): boolean {
  return t.isContiguous() && t.offset === 0;
}

/** target[...] = src (broadcast to target's shape, cast to its dtype), in place. */
export function copyInto(target: Tensor, src: Tensor | number): void {
  if (!isTensor(src)) {
    fillInto(target, src);
    return;
  }
  checkTarget('copy_', target);
  const device = inputsDevice('copy_', target);
  inputsDevice('copy_', src);
  if (!shapesEqual(broadcastShapes('copy_', src.shape, target.shape), target.shape)) {
    throw new Error(
      `copy_: source of shape ${formatShape(src.shape)} cannot be broadcast to ${formatShape(target.shape)}`,
    );
  }
  const source = src.deviceObject === device ? src : toDevice(src, device);
  if (target.numel() > 0)
    device.backend.assign(broadcastView(source, target.shape), kernelView(target));
  // A cross-device copy's staging tensor is ours alone: free it now (work already enqueued on
  // its buffer runs first), not at a later sweep (DataParallel refreshes replicas this way).
  if (source !== src) source.dispose();
  target.res.storage.version++;
}

export function fillInto(target: Tensor, value: number): void {
  checkTarget('fill_', target);
  const device = inputsDevice('fill_', target);
  if (target.numel() > 0) {
    if (isPlainOutput(target)) device.backend.fill(kernelView(target), value);
    else {
      const filled = emptyTensor(device, target.dtype, target.shape);
      device.backend.fill(kernelView(filled), value);
      device.backend.assign(kernelView(filled), kernelView(target));
      filled.dispose();
    }
  }
  target.res.storage.version++;
}
