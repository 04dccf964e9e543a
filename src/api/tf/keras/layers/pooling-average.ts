/**
 * Keras `AveragePooling1D` / `AveragePooling2D` (aliases `AvgPool1D` / `AvgPool2D`), channels-last,
 * over the engine's channels-first average pooling (ops/pool-avg.ts). TensorFlow's 'same' averages
 * only the input inside each window (the padding is not counted) and may pad one more at the end
 * than at the start, so 'same' pools the zero-padded input and divides by the share of each
 * window that is input (the same pooling of ones: a constant).
 */
import { noGrad, ops, type Tensor } from '../../../../engine';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { ValueError } from '../../../tf-config';
import { formatShapeSpec } from './layer';
import { padAxis, samePads } from './padding';
import { Pooling } from './pooling-base';

export abstract class AveragePooling extends Pooling {
  /** The engine's average pooling of channels-first x (already padded: no engine padding). */
  private pool(xc: Tensor): Tensor {
    if (this.rank === 1) return ops.avgPool1d(xc, this.poolSize[0], { stride: this.strides });
    return ops.avgPool2d(xc, [this.poolSize[0], this.poolSize[1]], { stride: this.strides });
  }

  /** Pads the spatial axes of channels-first x with zeros as TF's 'same' does. */
  private padSame(xc: Tensor): Tensor {
    let out = xc;
    xc.shape.slice(2).forEach((n, i) => {
      const [before, after] = samePads(n, this.poolSize[i], this.strides[i], 1, this.padding);
      out = padAxis(out, 2 + i, before, after, 0);
    });
    return out;
  }

  protected call(x: Tensor): Tensor {
    const xc = this.channelsFirstInput(x);
    xc.shape.slice(2).forEach((n, i) => {
      if (this.padding === 'valid' && n < this.poolSize[i]) {
        throw new ValueError(
          `${this.name}: the input is ${n} long along spatial axis ${i + 1}, shorter than the pool size ${this.poolSize[i]} with padding='valid'. Received input shape: ${formatShapeSpec(x.shape)}`,
        );
      }
    });
    let y = this.pool(this.padSame(xc));
    if (this.padding === 'same') {
      // The share of each window inside the input: 1 where no padding was pooled.
      const share = noGrad(() =>
        this.pool(
          this.padSame(ops.ones([1, 1, ...xc.shape.slice(2)], { device: xc.deviceObject })),
        ),
      );
      y = ops.div(y, share);
    }
    return ops.permute(y, this.rank === 1 ? [0, 2, 1] : [0, 2, 3, 1]);
  }
}

/**
 * `AveragePooling1D(poolSize = 2, { strides, padding })` over [N, steps, channels] and
 * `AveragePooling2D(poolSize = [2, 2], { strides, padding })` over [N, H, W, channels].
 */
export const [AveragePooling1D, AveragePooling2D] = ndClasses<AveragePooling, unknown, unknown[]>(
  AveragePooling,
  'AveragePooling',
  'D',
);
export type AveragePooling1D = AveragePooling;
export type AveragePooling2D = AveragePooling;
