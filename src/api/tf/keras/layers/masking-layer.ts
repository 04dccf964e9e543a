/**
 * Keras `Masking(maskValue=0.0)`: marks the timesteps whose features all equal `maskValue` as
 * padding. The output is the input with those steps zeroed, carrying the Keras mask
 * `any(x != maskValue, axis=-1)` (masking.ts) for the recurrent layers after it.
 */
import { ops, type Tensor } from '../../../../engine';
import { asNumber, optional } from '../../../args';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';

export class Masking extends Layer {
  readonly maskValue: number;
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Masking', ['maskValue'], [], args);
    super('Masking', a);
    this.maskValue = optional(a.maskValue, asNumber, 'Masking: maskValue', 0);
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  /** 1 where any feature differs from maskValue (Keras's reduce_any), kept as [..., 1]. */
  private keep(x: Tensor): Tensor {
    return ops.amax(ops.cast(ops.ne(x, this.maskValue), 'float32'), [-1], true);
  }

  override computeMask(x: Tensor): Tensor {
    return ops.squeeze(this.keep(x), [-1]);
  }

  protected call(x: Tensor): Tensor {
    const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    return ops.mul(input, this.keep(input));
  }
}
