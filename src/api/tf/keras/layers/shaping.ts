/** Keras layers without weights: `Flatten`, `Dropout(rate)` and `Activation(name)`. */
import { ops, type Tensor } from '../../../../engine';
import { asNumber } from '../../../args';
import { getActivation, type Activation as ActivationSpec } from '../activations';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';

/** Flattens all but the batch axis; channels-last data flattens in TensorFlow's order. */
export class Flatten extends Layer {
  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Flatten', ['dataFormat'], [], args);
    super('Flatten', a);
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const rest = inputShape.slice(1);
    const known = rest.every((d) => d !== null);
    return [inputShape[0], known ? (rest as number[]).reduce((a, b) => a * b, 1) : null];
  }

  protected override buildWeights(): void {
    this.inputSpec = { minNdim: 1 };
  }

  protected call(x: Tensor): Tensor {
    return ops.reshape(x, [x.shape[0], -1]);
  }
}

/** Zeroes a `rate` fraction of inputs while training and scales the rest by 1/(1 - rate). */
export class Dropout extends Layer {
  readonly rate: number;
  // Keras passes a mask through Dropout and Activation (not Flatten, which changes the steps).
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Dropout', ['rate', 'noiseShape', 'seed'], [], args);
    super('Dropout', a);
    this.rate = asNumber(a.rate, 'Dropout: rate');
    if (!(this.rate >= 0 && this.rate <= 1)) {
      throw new RangeError(
        `Invalid value received for argument \`rate\`. Expected a float value between 0 and 1. Received: rate=${this.rate}`,
      );
    }
    if (a.noiseShape !== undefined && a.noiseShape !== null)
      throw new TypeError('Dropout: noiseShape is not supported');
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  protected call(x: Tensor, training: boolean): Tensor {
    return ops.dropout(x, this.rate, training);
  }
}

/** Applies an activation by name ('relu', 'softmax', …) or function. */
export class Activation extends Layer {
  readonly activation: ActivationSpec;
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Activation', ['activation'], [], args);
    super('Activation', a);
    this.activation = getActivation(a.activation, 'Activation');
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  protected call(x: Tensor): Tensor {
    return this.activation.fn(x);
  }
}
