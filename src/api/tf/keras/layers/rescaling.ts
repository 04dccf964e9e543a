/** Keras `Rescaling(scale, offset=0.0)`: `x * scale + offset`, as float32 (images from 0–255). */
import { ops, type Tensor } from '../../../../engine';
import { asNumber, optional } from '../../../args';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';

export class Rescaling extends Layer {
  readonly scale: number;
  readonly offset: number;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Rescaling', ['scale', 'offset'], [], args);
    super('Rescaling', a);
    this.scale = asNumber(a.scale, 'Rescaling: scale');
    this.offset = optional(a.offset, asNumber, 'Rescaling: offset', 0);
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  protected call(x: Tensor): Tensor {
    const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    return ops.add(ops.mul(input, this.scale), this.offset);
  }
}
