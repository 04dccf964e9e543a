/** `torch.nn.functional` (F): the stateless forms of the layers, over the engine's ops. */
import { ops, Tensor } from '../../engine';
import { asNumber, bindArgs, boolArg, optional, tensorArg } from '../args';
import { functionalOps } from '../elementwise-faces';
import { poolFunctional } from './functional-pool';
import { resampleFunctional } from './functional-resample';
import { convFunctional } from './functional-conv';
import { normFunctional } from './functional-norm';
import { lossFunctional } from './functional-losses';
import { attentionFunctional } from './functional-attention';
import { extrasFunctional } from './functional-extras';

export const functional = {
  // The element-wise table's functional rows: relu, sigmoid, tanh, …
  ...functionalOps(),
  // Pooling (area C).
  ...poolFunctional,
  ...resampleFunctional,
  ...convFunctional,
  // Normalisation (area B).
  ...normFunctional,
  // Losses with PyTorch's signatures, and prelu, one_hot, normalize, cosine_similarity (area E).
  ...lossFunctional,
  ...extrasFunctional,
  // Attention (area D).
  ...attentionFunctional,
  softmax(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'softmax', params: ['input', 'dim'], keywordOnly: ['dtype'] }, args);
    return ops.softmax(
      tensorArg(a.input, 'softmax: input'),
      optional(a.dim, asNumber, 'softmax: dim', -1),
    );
  },
  logSoftmax(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'logSoftmax', params: ['input', 'dim'], keywordOnly: ['dtype'] },
      args,
    );
    return ops.logSoftmax(
      tensorArg(a.input, 'logSoftmax: input'),
      optional(a.dim, asNumber, 'logSoftmax: dim', -1),
    );
  },
  dropout(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'dropout', params: ['input', 'p', 'training', 'inplace'] }, args);
    return ops.dropout(
      tensorArg(a.input, 'dropout: input'),
      optional(a.p, asNumber, 'dropout: p', 0.5),
      boolArg(a.training, 'training', true),
    );
  },
};
