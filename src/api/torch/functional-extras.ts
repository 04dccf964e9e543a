/**
 * torch.nn.functional's small helpers with PyTorch's signatures (Python finds them by name:
 * one_hot is oneHot), over the engine's ops/nn-extras.ts.
 */
import { ops, Tensor } from '../../engine';
import { numberArg } from '../../engine/nn/layers/losses';
import { asInt, bindArgs, optional, tensorArg } from '../args';

export const extrasFunctional = {
  prelu(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'prelu', params: ['input', 'weight'] }, args);
    return ops.prelu(tensorArg(a.input, 'prelu: input'), tensorArg(a.weight, 'prelu: weight'));
  },
  oneHot(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'one_hot', params: ['tensor', 'numClasses'] }, args);
    return ops.oneHot(
      tensorArg(a.tensor, 'one_hot: tensor'),
      optional(a.numClasses, asInt, 'one_hot: num_classes', -1),
    );
  },
  normalize(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'normalize', params: ['input', 'p', 'dim', 'eps', 'out'] }, args);
    if (a.out !== undefined && a.out !== null)
      throw new TypeError('normalize: out= is not supported');
    return ops.normalize(
      tensorArg(a.input, 'normalize: input'),
      numberArg(a.p, 'normalize: p', 2),
      optional(a.dim, asInt, 'normalize: dim', 1),
      numberArg(a.eps, 'normalize: eps', 1e-12),
    );
  },
  cosineSimilarity(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'cosine_similarity', params: ['x1', 'x2', 'dim', 'eps'] }, args);
    return ops.cosineSimilarity(
      tensorArg(a.x1, 'cosine_similarity: x1'),
      tensorArg(a.x2, 'cosine_similarity: x2'),
      optional(a.dim, asInt, 'cosine_similarity: dim', 1),
      numberArg(a.eps, 'cosine_similarity: eps', 1e-8),
    );
  },
};
