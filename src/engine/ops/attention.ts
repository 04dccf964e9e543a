/**
 * Scaled dot-product attention, softmax(q·kᵀ/√E + mask)·v, composed of engine ops (batched
 * products, the row-softmax kernel, dropout), so both backends and autograd come for free.
 * Masks: a boolean mask (int32 0/1, as bool tensors are stored) says where to attend (True) — the
 * rest get -∞ — and a float mask is added to the scores.
 */
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { fromHost } from './creation';
import { cast, mul, sub } from './elementwise';
import { matmul } from './matmul';
import { dropout } from './nn';
import { scaleMaskSoftmax } from './scale-mask-softmax';
import { transpose } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

/**
 * What a masked score becomes: a finite stand-in for -∞ (exp of it minus any row max is exactly 0
 * in float32), so that the additive form needs no select op and a 0·∞ never makes NaN.
 */
const MASKED = -1e30;

/** A mask as additive scores: bool (int32) masks → 0 where `attendWhen` holds, else MASKED. */
export function additiveMask(mask: Tensor, attendWhen: boolean): Tensor {
  if (mask.dtype !== 'int32') return mask;
  return scoped(() => {
    const m = cast(mask, 'float32');
    // attend where m == 1 (attendWhen) or where m == 0 (!attendWhen)
    return mul(attendWhen ? sub(1, m) : m, MASKED);
  });
}

/** The causal mask [L, S] as additive scores: position i attends to j ≤ i. */
export function causalMask(L: number, S: number, like: Tensor): Tensor {
  const data = new Float32Array(L * S);
  for (let i = 0; i < L; i++) for (let j = i + 1; j < S; j++) data[i * S + j] = MASKED;
  return fromHost(data, [L, S], { device: like.deviceObject });
}

/**
 * softmax(q·kᵀ·scale + mask) and its product with v, for q [..., L, E], k [..., S, E],
 * v [..., S, Ev]; `mask` (additive, or bool: True attends) broadcasts to [..., L, S] and
 * `causal` lets query i attend to keys j ≤ i. Returns [output, weights].
 */
export function attentionWithWeights(
  q: Tensor,
  k: Tensor,
  v: Tensor,
  mask: Tensor | null,
  dropoutP: number,
  training: boolean,
  scale = 1 / Math.sqrt(q.shape[q.ndim - 1]),
  causal = false,
): [Tensor, Tensor] {
  // scale, mask and softmax in one kernel each way (ops/scale-mask-softmax.ts)
  let weights = scaleMaskSoftmax(matmul(q, transpose(k, -2, -1)), scale, mask, causal);
  if (dropoutP > 0 && training) weights = dropout(weights, dropoutP, true);
  return [matmul(weights, v), weights];
}

export interface AttentionOptions {
  attnMask?: Tensor | null;
  dropoutP?: number;
  isCausal?: boolean;
  scale?: number | null;
}

/** PyTorch's F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale). */
export function scaledDotProductAttention(
  query: Tensor,
  key: Tensor,
  value: Tensor,
  attnMask: Tensor | null = null,
  dropoutP = 0,
  isCausal = false,
  scale: number | null = null,
): Tensor {
  const op = 'scaled_dot_product_attention';
  inputsDevice(op, query, key, value);
  requireFloat(op, query, 'query');
  requireFloat(op, key, 'key');
  requireFloat(op, value, 'value');
  const [q, k, v] = [query, key, value];
  if (q.ndim < 2 || k.ndim < 2 || v.ndim < 2) {
    throw new ShapeError(
      `${op}: query, key and value need at least 2 dims, got ${formatShape(q.shape)}, ${formatShape(k.shape)}, ${formatShape(v.shape)}`,
    );
  }
  const E = q.shape[q.ndim - 1];
  const S = k.shape[k.ndim - 2];
  if (k.shape[k.ndim - 1] !== E || v.shape[v.ndim - 2] !== S) {
    throw new ShapeError(
      `${op}: expected query [..., L, E], key [..., S, E] and value [..., S, Ev], got ` +
        `${formatShape(q.shape)}, ${formatShape(k.shape)} and ${formatShape(v.shape)}`,
    );
  }
  if (isCausal && attnMask)
    throw new Error(
      `${op}: attn_mask and is_causal cannot both be set (is_causal builds the mask)`,
    );
  if (!(dropoutP >= 0 && dropoutP <= 1))
    throw new RangeError(`${op}: dropout_p must be in [0, 1], got ${dropoutP}`);
  return scoped(() => {
    // bool masks (True: attend) and is_causal are applied in the kernel, as MASKED scores
    const s = scale ?? 1 / Math.sqrt(E);
    return attentionWithWeights(q, k, v, attnMask, dropoutP, true, s, isCausal)[0];
  });
}
