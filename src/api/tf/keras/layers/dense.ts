/** Keras `Dense(units, { activation })`: y = activation(x · kernel + bias) on the last axis. */
import { ops, type Tensor } from '../../../../engine';
import { asInt } from '../../../args';
import { type Activation } from '../activations';
import { type InitializerFn } from '../initializers';
import { activationBiasArgs } from './conv-args';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';

export class Dense extends Layer {
  readonly units: number;
  readonly activation: Activation;
  readonly useBias: boolean;
  private readonly kernelInitializer: InitializerFn;
  private readonly biasInitializer: InitializerFn;
  kernel: Tensor | null = null;
  bias: Tensor | null = null;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs(
      'Dense',
      ['units', 'activation', 'useBias', 'kernelInitializer', 'biasInitializer'],
      [],
      args,
    );
    super('Dense', a);
    this.units = asInt(a.units, 'Dense: units');
    if (this.units < 1)
      throw new RangeError(`Dense: units must be a positive integer, got ${this.units}`);
    ({
      activation: this.activation,
      useBias: this.useBias,
      kernelInitializer: this.kernelInitializer,
      biasInitializer: this.biasInitializer,
    } = activationBiasArgs(a, 'Dense'));
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return [...inputShape.slice(0, -1), this.units];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const inFeatures = inputShape[inputShape.length - 1];
    if (inputShape.length < 2 || inFeatures === null) {
      throw new Error(
        `The last dimension of the inputs to a Dense layer should be defined. Found None. Full input shape received: ${JSON.stringify(inputShape)}`,
      );
    }
    this.kernel = this.addWeight('kernel', [inFeatures, this.units], this.kernelInitializer);
    if (this.useBias) this.bias = this.addWeight('bias', [this.units], this.biasInitializer);
    this.inputSpec = { minNdim: 2, axes: { [-1]: inFeatures } };
  }

  protected call(x: Tensor): Tensor {
    const kernel = this.kernel as Tensor;
    const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    const rows = input.ndim === 2 ? input : ops.reshape(input, [-1, kernel.shape[0]]);
    let y = ops.matmul(rows, kernel);
    if (this.bias) y = ops.add(y, this.bias);
    if (input.ndim !== 2) y = ops.reshape(y, [...input.shape.slice(0, -1), this.units]);
    return this.activation.fn(y);
  }
}
