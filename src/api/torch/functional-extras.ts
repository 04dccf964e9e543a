/**
 * torch.nn.functional's small helpers with PyTorch's signatures (Python finds them by name:
 * one_hot is oneHot), over the engine's ops/nn-extras.ts.
 */
import { ops, Tensor } from '../../engine';
import { numberArg } from '../../engine/nn/layers/losses';
import { asInt, bindArgs, describe, optional } from '../args';

function tensor(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  throw new TypeError(`${what} must be a Tensor, got ${describe(value)}`);
}

export const extrasFunctional = {
  prelu(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'prelu', params: ['input', 'weight'] }, args);
    return ops.prelu(tensor(a.input, 'prelu: input'), tensor(a.weight, 'prelu: weight'));
  },
  oneHot(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'one_hot', params: ['tensor', 'numClasses'] }, args);
    return ops.oneHot(
      tensor(a.tensor, 'one_hot: tensor'),
      optional(a.numClasses, asInt, 'one_hot: num_classes', -1),
    );
  },
  normalize(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'normalize', params: ['input', 'p', 'dim', 'eps', 'out'] }, args);
    if (a.out !== undefined && a.out !== null)
      throw new TypeError('normalize: out= is not supported');
    return ops.normalize(
      tensor(a.input, 'normalize: input'),
      numberArg(a.p, 'normalize: p', 2),
      optional(a.dim, asInt, 'normalize: dim', 1),
      numberArg(a.eps, 'normalize: eps', 1e-12),
    );
  },
  cosineSimilarity(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'cosine_similarity', params: ['x1', 'x2', 'dim', 'eps'] }, args);
    return ops.cosineSimilarity(
      tensor(a.x1, 'cosine_similarity: x1'),
      tensor(a.x2, 'cosine_similarity: x2'),
      optional(a.dim, asInt, 'cosine_similarity: dim', 1),
      numberArg(a.eps, 'cosine_similarity: eps', 1e-8),
    );
  },
};
