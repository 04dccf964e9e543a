/**
 * F's normalisation forms: layer_norm, batch_norm, group_norm and instance_norm with PyTorch's
 * signatures and defaults, over the engine's ops (engine/ops/norm.ts).
 */
import { Tensor } from '../../engine';
import { batchNorm, groupNorm, instanceNorm, layerNorm } from '../../engine/ops/norm';
import {
  asInt,
  asNumber,
  asShape,
  bindArgs,
  boolArg,
  optional,
  tensorArg,
  optionalTensorArg,
} from '../args';

export const normFunctional = {
  layerNorm(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'layer_norm', params: ['input', 'normalizedShape', 'weight', 'bias', 'eps'] },
      args,
    );
    return layerNorm(
      tensorArg(a.input, 'layer_norm: input'),
      asShape(a.normalizedShape, 'layer_norm: normalized_shape'),
      optionalTensorArg(a.weight, 'layer_norm: weight'),
      optionalTensorArg(a.bias, 'layer_norm: bias'),
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
      tensorArg(a.input, 'batch_norm: input'),
      {
        runningMean: optionalTensorArg(a.runningMean, 'batch_norm: running_mean'),
        runningVar: optionalTensorArg(a.runningVar, 'batch_norm: running_var'),
        momentum: optional(a.momentum, asNumber, 'batch_norm: momentum', 0.1),
      },
      optionalTensorArg(a.weight, 'batch_norm: weight'),
      optionalTensorArg(a.bias, 'batch_norm: bias'),
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
      tensorArg(a.input, 'group_norm: input'),
      asInt(a.numGroups, 'group_norm: num_groups'),
      optionalTensorArg(a.weight, 'group_norm: weight'),
      optionalTensorArg(a.bias, 'group_norm: bias'),
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
      tensorArg(a.input, 'instance_norm: input'),
      {
        runningMean: optionalTensorArg(a.runningMean, 'instance_norm: running_mean'),
        runningVar: optionalTensorArg(a.runningVar, 'instance_norm: running_var'),
        momentum: optional(a.momentum, asNumber, 'instance_norm: momentum', 0.1),
      },
      optionalTensorArg(a.weight, 'instance_norm: weight'),
      optionalTensorArg(a.bias, 'instance_norm: bias'),
      boolArg(a.useInputStats, 'instance_norm: use_input_stats', true),
      optional(a.eps, asNumber, 'instance_norm: eps', 1e-5),
    );
  },
};
