/**
 * F's normalisation forms: layer_norm, batch_norm, group_norm and instance_norm with PyTorch's
 * signatures and defaults, over the engine's ops (engine/ops/norm.ts).
 */
import { Tensor } from '../../engine';
import { batchNorm, groupNorm, instanceNorm, layerNorm } from '../../engine/ops/norm';
import { asInt, asNumber, asShape, bindArgs, boolArg, optional } from '../args';

function input(value: unknown, name: string): Tensor {
  if (value instanceof Tensor) return value;
  throw new TypeError(`${name}: input must be a Tensor`);
}

/** An optional tensor argument (weight, bias, running statistics): null when not given. */
function maybe(value: unknown, what: string): Tensor | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Tensor) return value;
  throw new TypeError(`${what} must be a Tensor or None`);
}

export const normFunctional = {
  layerNorm(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'layer_norm', params: ['input', 'normalizedShape', 'weight', 'bias', 'eps'] },
      args,
    );
    return layerNorm(
      input(a.input, 'layer_norm'),
      asShape(a.normalizedShape, 'layer_norm: normalized_shape'),
      maybe(a.weight, 'layer_norm: weight'),
      maybe(a.bias, 'layer_norm: bias'),
      optional(a.eps, asNumber, 'layer_norm: eps', 1e-5),
    );
  },
  batchNorm(...args: unknown[]): Tensor {
    const a = bindArgs(
      {
        name: 'batch_norm',
        params: [
          'input',
          'runningMean',
          'runningVar',
          'weight',
          'bias',
          'training',
          'momentum',
          'eps',
        ],
      },
      args,
    );
    return batchNorm(
      input(a.input, 'batch_norm'),
      {
        runningMean: maybe(a.runningMean, 'batch_norm: running_mean'),
        runningVar: maybe(a.runningVar, 'batch_norm: running_var'),
        momentum: optional(a.momentum, asNumber, 'batch_norm: momentum', 0.1),
      },
      maybe(a.weight, 'batch_norm: weight'),
      maybe(a.bias, 'batch_norm: bias'),
      boolArg(a.training, 'batch_norm: training', false),
      optional(a.eps, asNumber, 'batch_norm: eps', 1e-5),
    );
  },
  groupNorm(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'group_norm', params: ['input', 'numGroups', 'weight', 'bias', 'eps'] },
      args,
    );
    return groupNorm(
      input(a.input, 'group_norm'),
      asInt(a.numGroups, 'group_norm: num_groups'),
      maybe(a.weight, 'group_norm: weight'),
      maybe(a.bias, 'group_norm: bias'),
      optional(a.eps, asNumber, 'group_norm: eps', 1e-5),
    );
  },
  instanceNorm(...args: unknown[]): Tensor {
    const a = bindArgs(
      {
        name: 'instance_norm',
        params: [
          'input',
          'runningMean',
          'runningVar',
          'weight',
          'bias',
          'useInputStats',
          'momentum',
          'eps',
        ],
      },
      args,
    );
    return instanceNorm(
      input(a.input, 'instance_norm'),
      {
        runningMean: maybe(a.runningMean, 'instance_norm: running_mean'),
        runningVar: maybe(a.runningVar, 'instance_norm: running_var'),
        momentum: optional(a.momentum, asNumber, 'instance_norm: momentum', 0.1),
      },
      maybe(a.weight, 'instance_norm: weight'),
      maybe(a.bias, 'instance_norm: bias'),
      boolArg(a.useInputStats, 'instance_norm: use_input_stats', true),
      optional(a.eps, asNumber, 'instance_norm: eps', 1e-5),
    );
  },
};
