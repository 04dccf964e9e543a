/**
 * Which engine tensors Python owns, so that CPython's reference counting frees them as PyTorch
 * does. Every Python `Tensor` wrapper of an engine tensor counts here while it lives. A tensor is
 * Python's to release only if it was a fresh op result when Python first saw it (not an input
 * handed back, not a parameter, buffer or `.grad` the engine holds): when the last Python wrapper
 * of such a tensor goes, the tensor is disposed at once. Tensors Python merely looked at are never
 * disposed here; the engine's own lifetimes (memory.ts) cover them.
 */
import { Tensor } from '../../engine';

const wrappers = new Map<Tensor, number>();
const owned = new WeakSet<Tensor>();

/**
 * A Python wrapper of `t` was made. `fresh`: `t` came back from an op Python called (rather than
 * from an attribute such as `.grad` or a module's parameters).
 */
export function retain(t: Tensor, fresh: boolean): void {
  const count = wrappers.get(t) ?? 0;
  // Already wrapped: the op handed back a tensor Python holds (`x.to(x.device)`, in-place ops).
  if (count === 0 && fresh && !t.res.persistent && !t.isDisposed) owned.add(t);
  wrappers.set(t, count + 1);
}

/** A Python wrapper of `t` was collected (its `__del__`). */
export function release(t: Tensor): void {
  const count = (wrappers.get(t) ?? 0) - 1;
  if (count > 0) {
    wrappers.set(t, count);
    return;
  }
  wrappers.delete(t);
  if (owned.has(t)) {
    owned.delete(t);
    // A parameter made from this tensor (nn.Parameter) took its memory, not this handle.
    if (!t.res.persistent) t.dispose();
  }
}

/**
 * Python handed `t` to the engine to keep (`p.grad = t`): its wrappers going away must no
 * longer dispose it; the engine's own lifetimes take over.
 */
export function disown(t: Tensor): void {
  owned.delete(t);
}

/** Engine tensors some Python wrapper holds now (for tests and the memory panel). */
export function pythonHeldCount(): number {
  return wrappers.size;
}

/**
 * The engine tensors Python variables hold: roots for the engine's step sweeps
 * (`setRootProvider`), as the notebook's TypeScript variables are, so a tensor a Python cell
 * keeps but has not used for two steps stays on its device instead of being spilled to host.
 */
export function pythonHeldTensors(): Iterable<Tensor> {
  return wrappers.keys();
}

export function isTensor(value: unknown): value is Tensor {
  return value instanceof Tensor;
}
