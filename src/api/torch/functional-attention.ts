/**
 * F's attention form: scaled_dot_product_attention with PyTorch's signature and defaults, over
 * the engine's op (engine/ops/attention.ts).
 */
import { Tensor } from '../../engine';
import { scaledDotProductAttention } from '../../engine/ops/attention';
import { asNumber, bindArgs, boolArg, optional, optionalTensorArg, tensorArg } from '../args';

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
    const mask = optionalTensorArg(a.attnMask, 'scaled_dot_product_attention: attn_mask');
    return scaledDotProductAttention(
      tensorArg(a.query, 'scaled_dot_product_attention: query'),
      tensorArg(a.key, 'scaled_dot_product_attention: key'),
      tensorArg(a.value, 'scaled_dot_product_attention: value'),
      mask,
      optional(a.dropoutP, asNumber, 'scaled_dot_product_attention: dropout_p', 0),
      boolArg(a.isCausal, 'scaled_dot_product_attention: is_causal', false),
      a.scale === undefined || a.scale === null
        ? null
        : asNumber(a.scale, 'scaled_dot_product_attention: scale'),
    );
  },
};
