/**
 * Keras `MaxPooling1D` / `MaxPooling2D` (aliases `MaxPool1D` / `MaxPool2D`), channels-last, over
 * the engine's channels-first max pooling. 'same' pads with a very negative value, which the
 * maximum never picks, as TF ignores padded positions.
 */
import { ops, type Tensor } from '../../../../engine';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { checkWindowFits, padAxis, samePads } from './padding';
import { Pooling } from './pooling-base';

const LOWEST = -3.4e38;

export abstract class MaxPooling extends Pooling {
  protected call(x: Tensor): Tensor {
    let xc = this.channelsFirstInput(x);
    x.shape.slice(1, 1 + this.rank).forEach((n, i) => {
      checkWindowFits(this.name, n, this.poolSize[i], 1, this.padding);
      const [before, after] = samePads(n, this.poolSize[i], this.strides[i], 1, this.padding);
      xc = padAxis(xc, 2 + i, before, after, LOWEST);
    });
    if (this.rank === 1) {
      return ops.permute(
        ops.maxPool1d(xc, this.poolSize[0], { stride: this.strides[0] }),
        [0, 2, 1],
      );
    }
    const y = ops.maxPool2d(xc, [this.poolSize[0], this.poolSize[1]], {
      stride: [this.strides[0], this.strides[1]],
    });
    return ops.permute(y, [0, 2, 3, 1]);
  }
}

/**
 * `MaxPool1D(poolSize = 2, { strides, padding })` over [N, steps, channels] and
 * `MaxPool2D(poolSize = [2, 2], { strides, padding })` over [N, H, W, channels].
 */
export const [MaxPooling1D, MaxPooling2D] = ndClasses<MaxPooling, unknown, unknown[]>(
  MaxPooling,
  'MaxPooling',
  'D',
);
export type MaxPooling1D = MaxPooling;
export type MaxPooling2D = MaxPooling;
