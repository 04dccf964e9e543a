/**
 * Keras `Softmax(axis=-1)` (an int or a list of axes). A mask — the input's Keras mask — adds
 * Keras's large negative (-1e9) where it is 0 before the softmax and zeroes those outputs after,
 * broadcast as NumPy broadcasts. Over the last axis without a mask the output remembers its
 * logits, as Keras's softmax activation does (activations.ts).
 */
import { ops, type Tensor } from '../../../../engine';
import { softmax as kerasSoftmax } from '../activations';
import { ValueError } from '../../../tf-config';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';
import { axisList, resolveAxis } from './norm-args';

const LARGE_NEGATIVE = -1e9;

/** Whether `from` broadcasts to `to` (aligned at the end, as NumPy does). */
function broadcasts(from: readonly number[], to: readonly number[]): boolean {
  if (from.length > to.length) return false;
  return from.every((d, i) => d === 1 || d === to[to.length - from.length + i]);
}

export class Softmax extends Layer {
  readonly axis: number[];
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Softmax', ['axis'], [], args);
    super('Softmax', a);
    this.axis = axisList(a.axis ?? -1, 'Softmax: axis');
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  protected call(x: Tensor, _training: boolean, mask?: Tensor | null): Tensor {
    let input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    const maskF = mask ? ops.cast(mask, 'float32') : null;
    if (maskF) {
      if (!broadcasts(maskF.shape, input.shape)) {
        throw new ValueError(
          `${this.name}: its mask of shape ${formatShapeSpec(maskF.shape)} does not broadcast against the input of shape ${formatShapeSpec(input.shape)} (Keras adds the mask to the input as NumPy broadcasts)`,
        );
      }
      input = ops.add(input, ops.mul(ops.sub(1, maskF), LARGE_NEGATIVE));
    }
    const axes = [...new Set(this.axis.map((a) => resolveAxis(this.name, a, input.shape)))];
    let y: Tensor;
    if (axes.length > 1) y = ops.exp(ops.sub(input, ops.logsumexp(input, axes, true)));
    else if (axes[0] === input.ndim - 1 && !maskF) y = kerasSoftmax(input);
    else y = ops.softmax(input, axes[0]);
    return maskF ? ops.mul(y, maskF) : y;
  }
}
