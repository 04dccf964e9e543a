/**
 * Keras masks: a boolean-like [batch, steps] tensor riding along with a layer's output (Keras's
 * `_keras_mask`). `Embedding(maskZero=true)` makes one; layers that support masking receive it in
 * `call(x, training, mask)` and pass it on (or transform it) through `computeMask`; others drop it.
 * Kept in a WeakMap so a mask never outlives the tensor it describes, and never keeps it alive.
 */
import type { Tensor } from '../../../../engine';

const masks = new WeakMap<Tensor, Tensor>();

/** The mask carried by `t` (1 where a step is real, 0 where it is padding), if any. */
export function kerasMask(t: Tensor): Tensor | null {
  return masks.get(t) ?? null;
}

/** Attaches `mask` to `t` (null removes it). */
export function setKerasMask(t: Tensor, mask: Tensor | null): void {
  if (mask) masks.set(t, mask);
  else masks.delete(t);
}
