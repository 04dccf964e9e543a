/**
 * F's attention form: scaled_dot_product_attention with PyTorch's signature and defaults, over
 * the engine's op (engine/ops/attention.ts).
 */
import { Tensor } from '../../engine';
import { scaledDotProductAttention } from '../../engine/ops/attention';
import { asNumber, bindArgs, boolArg, optional } from '../args';

function tensorArg(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  throw new TypeError(`scaled_dot_product_attention: ${what} must be a Tensor`);
}

export const attentionFunctional = {
  scaledDotProductAttention(...args: unknown[]): Tensor {
    const a = bindArgs(
      {
        name: 'scaled_dot_product_attention',
        params: ['query', 'key', 'value', 'attnMask', 'dropoutP', 'isCausal'],
        keywordOnly: ['scale'],
      },
      args,
    );
    const mask =
      a.attnMask === undefined || a.attnMask === null ? null : tensorArg(a.attnMask, 'attn_mask');
    return scaledDotProductAttention(
      tensorArg(a.query, 'query'),
      tensorArg(a.key, 'key'),
      tensorArg(a.value, 'value'),
      mask,
      optional(a.dropoutP, asNumber, 'scaled_dot_product_attention: dropout_p', 0),
      boolArg(a.isCausal, 'scaled_dot_product_attention: is_causal', false),
      a.scale === undefined || a.scale === null
        ? null
        : asNumber(a.scale, 'scaled_dot_product_attention: scale'),
    );
  },
};
