/**
 * torch.nn.functional's losses with PyTorch's signatures (Python finds them by name: nll_loss is
 * nllLoss), over the engine's ops/losses.ts. The deprecated size_average and reduce are refused.
 */
import { ops, Tensor } from '../../engine';
import { numberArg, optionalTensor, reductionArg } from '../../engine/nn/layers/losses';
import { asBool, bindArgs, optional, tensorArg } from '../args';

function bound(name: string, params: string[], args: unknown[]) {
  const a = bindArgs({ name, params: ['input', 'target', ...params] }, args);
  for (const old of ['sizeAverage', 'reduce'])
    if (a[old] !== undefined && a[old] !== null)
      throw new TypeError(`${name}: ${old} is deprecated and not supported; use reduction`);
  return {
    a,
    input: tensorArg(a.input, `${name}: input`),
    target: tensorArg(a.target, `${name}: target`),
    reduction: reductionArg(a.reduction, name),
  };
}

const WEIGHTED = ['weight', 'sizeAverage', 'ignoreIndex', 'reduce', 'reduction'];
const PLAIN = ['sizeAverage', 'reduce', 'reduction'];

export const lossFunctional = {
  nllLoss(...args: unknown[]): Tensor {
    const { a, input, target, reduction } = bound('nll_loss', WEIGHTED, args);
    return ops.nllLoss(input, target, {
      weight: optionalTensor(a.weight, 'nll_loss: weight'),
      ignoreIndex: numberArg(a.ignoreIndex, 'nll_loss: ignore_index', -100),
      reduction,
    });
  },
  crossEntropy(...args: unknown[]): Tensor {
    const { a, input, target, reduction } = bound(
      'cross_entropy',
      [...WEIGHTED, 'labelSmoothing'],
      args,
    );
    return ops.crossEntropyLoss(input, target, {
      weight: optionalTensor(a.weight, 'cross_entropy: weight'),
      ignoreIndex: numberArg(a.ignoreIndex, 'cross_entropy: ignore_index', -100),
      labelSmoothing: numberArg(a.labelSmoothing, 'cross_entropy: label_smoothing', 0),
      reduction,
    });
  },
  binaryCrossEntropy(...args: unknown[]): Tensor {
    const { a, input, target, reduction } = bound(
      'binary_cross_entropy',
      ['weight', ...PLAIN],
      args,
    );
    const weight = optionalTensor(a.weight, 'binary_cross_entropy: weight');
    return ops.binaryCrossEntropy(input, target, weight, reduction);
  },
  binaryCrossEntropyWithLogits(...args: unknown[]): Tensor {
    const name = 'binary_cross_entropy_with_logits';
    const { a, input, target, reduction } = bound(name, ['weight', ...PLAIN, 'posWeight'], args);
    return ops.binaryCrossEntropyWithLogits(
      input,
      target,
      optionalTensor(a.weight, `${name}: weight`),
      optionalTensor(a.posWeight, `${name}: pos_weight`),
      reduction,
    );
  },
  mseLoss(...args: unknown[]): Tensor {
    const { input, target, reduction } = bound('mse_loss', PLAIN, args);
    return ops.mseLoss(input, target, reduction);
  },
  l1Loss(...args: unknown[]): Tensor {
    const { input, target, reduction } = bound('l1_loss', PLAIN, args);
    return ops.l1Loss(input, target, reduction);
  },
  smoothL1Loss(...args: unknown[]): Tensor {
    const { a, input, target, reduction } = bound('smooth_l1_loss', [...PLAIN, 'beta'], args);
    return ops.smoothL1Loss(input, target, reduction, numberArg(a.beta, 'smooth_l1_loss: beta', 1));
  },
  huberLoss(...args: unknown[]): Tensor {
    const { a, input, target, reduction } = bound('huber_loss', ['reduction', 'delta'], args);
    return ops.huberLoss(input, target, reduction, numberArg(a.delta, 'huber_loss: delta', 1));
  },
  klDiv(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'kl_div', params: ['input', 'target', ...PLAIN, 'logTarget'] },
      args,
    );
    const reduction = reductionArg(a.reduction, 'kl_div', ['mean', 'batchmean', 'sum', 'none']);
    return ops.klDiv(
      tensorArg(a.input, 'kl_div: input'),
      tensorArg(a.target, 'kl_div: target'),
      reduction,
      optional(a.logTarget, asBool, 'kl_div: log_target', false),
    );
  },
};
