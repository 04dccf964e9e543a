/** `torch.nn.functional` (F): the stateless forms of the layers, over the engine's ops. */
import { ops, Tensor } from '../../engine';
import { asNumber, bindArgs, boolArg, optional } from '../args';
import { functionalOps } from '../elementwise-faces';
import { poolFunctional } from './functional-pool';
import { resampleFunctional } from './functional-resample';
import { normFunctional } from './functional-norm';

function tensor(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  throw new TypeError(`${what} must be a Tensor`);
}

function reduction(value: unknown): ops.Reduction {
  if (value === undefined || value === null) return 'mean';
  if (value === 'mean' || value === 'sum' || value === 'none') return value;
  throw new TypeError(`reduction must be 'mean', 'sum' or 'none', got ${JSON.stringify(value)}`);
}

export const functional = {
  // The element-wise table's functional rows: relu, sigmoid, tanh, …
  ...functionalOps(),
  // Pooling (area C).
  ...poolFunctional,
  ...resampleFunctional,
  // Normalisation (area B).
  ...normFunctional,
  softmax(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'softmax', params: ['input', 'dim'], keywordOnly: ['dtype'] }, args);
    return ops.softmax(
      tensor(a.input, 'softmax: input'),
      optional(a.dim, asNumber, 'softmax: dim', -1),
    );
  },
  logSoftmax(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'logSoftmax', params: ['input', 'dim'], keywordOnly: ['dtype'] },
      args,
    );
    return ops.logSoftmax(
      tensor(a.input, 'logSoftmax: input'),
      optional(a.dim, asNumber, 'logSoftmax: dim', -1),
    );
  },
  crossEntropy(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'crossEntropy', params: ['input', 'target'], keywordOnly: ['reduction'] },
      args,
    );
    return ops.crossEntropy(
      tensor(a.input, 'crossEntropy: input'),
      tensor(a.target, 'crossEntropy: target'),
      reduction(a.reduction),
    );
  },
  mseLoss(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'mseLoss', params: ['input', 'target'], keywordOnly: ['reduction'] },
      args,
    );
    return ops.mseLoss(
      tensor(a.input, 'mseLoss: input'),
      tensor(a.target, 'mseLoss: target'),
      reduction(a.reduction),
    );
  },
  dropout(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'dropout', params: ['input', 'p', 'training', 'inplace'] }, args);
    return ops.dropout(
      tensor(a.input, 'dropout: input'),
      optional(a.p, asNumber, 'dropout: p', 0.5),
      boolArg(a.training, 'training', true),
    );
  },
};
