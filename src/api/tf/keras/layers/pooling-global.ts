/**
 * Keras's global pooling layers, channels-last: `GlobalAveragePooling1D/2D` and
 * `GlobalMaxPooling1D/2D` (aliases `GlobalAvgPool1D`, `GlobalMaxPool2D`, …), the mean or maximum
 * over the steps (1D) or over height and width (2D), with `keepdims`. GlobalAveragePooling1D
 * honours a Keras mask as Keras does — the mean over the unmasked steps only — and, like Keras,
 * no pooling layer passes a mask on.
 */
import { ops, type Tensor } from '../../../../engine';
import { ValueError } from '../../../tf-config';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { asBool, optional } from '../../../args';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';

abstract class GlobalPooling extends Layer {
  readonly keepdims: boolean;

  constructor(
    className: string,
    readonly rank: 1 | 2,
    args: readonly unknown[],
  ) {
    const a = bindLayerArgs(className, ['dataFormat', 'keepdims'], [], args);
    super(className, a);
    this.keepdims = optional(a.keepdims, asBool, `${className}: keepdims`, false);
    if (a.dataFormat !== undefined && a.dataFormat !== null && a.dataFormat !== 'channels_last') {
      throw new TypeError(`${className}: only dataFormat 'channels_last' is supported`);
    }
  }

  /** The pooled axes: the steps, or height and width. */
  protected get axes(): number[] {
    return this.rank === 1 ? [1] : [1, 2];
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const channels = inputShape[inputShape.length - 1];
    if (!this.keepdims) return [inputShape[0], channels];
    return [inputShape[0], ...new Array<number>(this.rank).fill(1), channels];
  }

  protected override buildWeights(): void {
    this.inputSpec = { ndim: this.rank + 2 };
  }

  protected float(x: Tensor): Tensor {
    return x.dtype === 'float32' ? x : ops.cast(x, 'float32');
  }
}

export class GlobalAveragePooling extends GlobalPooling {
  // Keras accepts the mask (and uses it in 1D) but the pooled output carries none.
  override supportsMasking = false;

  protected call(x: Tensor, _training: boolean, mask?: Tensor | null): Tensor {
    const input = this.float(x);
    if (!mask || this.rank !== 1) return ops.mean(input, this.axes, this.keepdims);
    if (mask.ndim !== 2 || mask.shape[0] !== x.shape[0] || mask.shape[1] !== x.shape[1]) {
      throw new ValueError(
        `${this.name}: the mask ${formatShapeSpec(mask.shape)} does not match the steps of the input ${formatShapeSpec(x.shape)}`,
      );
    }
    const w = ops.unsqueeze(ops.cast(mask, 'float32'), 2);
    return ops.div(ops.sum(ops.mul(input, w), 1, this.keepdims), ops.sum(w, 1, this.keepdims));
  }
}

export class GlobalMaxPooling extends GlobalPooling {
  protected call(x: Tensor): Tensor {
    return ops.amax(this.float(x), this.axes, this.keepdims);
  }
}

/** `GlobalAveragePooling1D({ keepdims })` over [N, steps, C]; `…2D` over [N, H, W, C]. */
export const [GlobalAveragePooling1D, GlobalAveragePooling2D] = ndClasses<
  GlobalAveragePooling,
  unknown,
  unknown[]
>(GlobalAveragePooling, 'GlobalAveragePooling', 'D');
export type GlobalAveragePooling1D = GlobalAveragePooling;
export type GlobalAveragePooling2D = GlobalAveragePooling;

/** `GlobalMaxPooling1D({ keepdims })` over [N, steps, C]; `…2D` over [N, H, W, C]. */
export const [GlobalMaxPooling1D, GlobalMaxPooling2D] = ndClasses<
  GlobalMaxPooling,
  unknown,
  unknown[]
>(GlobalMaxPooling, 'GlobalMaxPooling', 'D');
export type GlobalMaxPooling1D = GlobalMaxPooling;
export type GlobalMaxPooling2D = GlobalMaxPooling;
