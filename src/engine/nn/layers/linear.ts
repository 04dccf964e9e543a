/** nn.Linear: y = x·Wᵀ + b over the last dimension, initialised as PyTorch does. */
import type { DeviceSpec } from '../../devices/device-name';
import { add } from '../../ops/elementwise';
import { matmul, t } from '../../ops/matmul';
import { scoped } from '../../ops/support';
import { formatShape, ShapeError } from '../../shape';
import type { Tensor } from '../../tensor';
import { checkInputDevice } from '../device-errors';
import { biasUniform, kaimingUniform } from '../init';
import {
  bind,
  boolArg,
  checkFloatDtype,
  deviceArg,
  positiveInt,
  requireTensor,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { Parameter } from '../parameter';

export interface LinearOptions {
  inFeatures?: number;
  outFeatures?: number;
  bias?: boolean;
  device?: DeviceSpec;
  dtype?: string;
}

export class Linear extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  declare readonly inFeatures: number;
  declare readonly outFeatures: number;

  constructor(
    inFeatures: number,
    outFeatures: number,
    bias?: boolean | LinearOptions,
    options?: LinearOptions,
  );
  constructor(options: LinearOptions);
  constructor(...args: unknown[]) {
    super();
    const a = bind(
      { name: 'Linear', params: ['inFeatures', 'outFeatures', 'bias', 'device', 'dtype'] },
      args,
    );
    checkFloatDtype(a.dtype, 'Linear');
    const inFeatures = positiveInt(a.inFeatures, 'Linear: inFeatures');
    const outFeatures = positiveInt(a.outFeatures, 'Linear: outFeatures');
    const device = deviceArg(a.device);
    Object.defineProperties(this, {
      inFeatures: { value: inFeatures, enumerable: false },
      outFeatures: { value: outFeatures, enumerable: false },
    });
    this.weight = new Parameter(kaimingUniform([outFeatures, inFeatures], device));
    this.bias = boolArg(a.bias, 'Linear: bias', true)
      ? new Parameter(biasUniform([outFeatures], inFeatures, device))
      : null;
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'Linear');
    checkInputDevice('Linear', x, this.weight);
    if (x.ndim === 0 || x.shape[x.ndim - 1] !== this.inFeatures) {
      throw new ShapeError(
        `Linear(in_features=${this.inFeatures}, out_features=${this.outFeatures}): expected an input ` +
          `whose last dimension is ${this.inFeatures}, got shape ${formatShape(x.shape)}`,
      );
    }
    const bias = this.bias;
    return scoped(() => {
      const y = matmul(x, t(this.weight));
      return bias ? add(y, bias) : y;
    });
  }

  override extraRepr(): string {
    return `in_features=${this.inFeatures}, out_features=${this.outFeatures}, bias=${this.bias ? 'True' : 'False'}`;
  }
}

libraryForward(Linear);
