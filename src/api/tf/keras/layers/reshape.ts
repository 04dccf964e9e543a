/**
 * Keras `Reshape(target_shape)`: every sample to `target_shape` (which may hold one -1, worked out
 * from the sample's size), the batch axis kept. Errors as Keras's `compute_reshape_output_shape`.
 */
import { ops, type Tensor } from '../../../../engine';
import { ValueError } from '../../../tf-config';
import { asInt } from '../../../args';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';

/** Keras's `compute_reshape_output_shape` over the per-sample shape (null sizes stay unknown). */
export function reshapeOutput(inputShape: ShapeSpec, target: readonly number[]): ShapeSpec {
  const unknown = target.filter((d) => d === -1).length;
  const received = () =>
    `Received: input_shape=${formatShapeSpec(inputShape)}, target_shape=${formatShapeSpec(target)}`;
  if (unknown > 1) {
    throw new ValueError(
      `There must be at most one unknown dimension (-1) in target_shape. Received: target_shape=${formatShapeSpec(target)}.`,
    );
  }
  if (inputShape.includes(null)) return target.map((d) => (d === -1 ? null : d));
  const size = (inputShape as number[]).reduce((a, b) => a * b, 1);
  const known = target.filter((d) => d !== -1).reduce((a, b) => a * b, 1);
  if (unknown === 0) {
    if (known !== size)
      throw new ValueError(`The total size of the tensor must be unchanged. ${received()}`);
    return target;
  }
  if (known === 0 || size % known !== 0) {
    throw new ValueError(
      `The total size of the tensor must be unchanged, however, the input size cannot by divided by the specified dimensions in target_shape. ${received()}`,
    );
  }
  return target.map((d) => (d === -1 ? size / known : d));
}

export class Reshape extends Layer {
  readonly targetShape: number[];

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Reshape', ['targetShape'], [], args);
    super('Reshape', a);
    const t = a.targetShape;
    if (!Array.isArray(t)) {
      throw new TypeError(
        `Reshape: targetShape must be a list of ints (one may be -1), got ${JSON.stringify(t)}`,
      );
    }
    this.targetShape = t.map((d, i) => {
      const v = asInt(d, `Reshape: targetShape[${i}]`);
      if (v < -1) throw new RangeError(`Reshape: targetShape[${i}] must be -1 or a size, got ${v}`);
      return v;
    });
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return [inputShape[0], ...reshapeOutput(inputShape.slice(1), this.targetShape)];
  }

  protected call(x: Tensor): Tensor {
    const sample = reshapeOutput(x.shape.slice(1), this.targetShape) as number[];
    return ops.reshape(x, [x.shape[0], ...sample]);
  }
}
