/**
 * Keras `MaxPooling1D` / `MaxPooling2D` (aliases `MaxPool1D` / `MaxPool2D`), channels-last, over
 * the engine's channels-first max pooling. 'same' pads with a very negative value, which the
 * maximum never picks, as TF ignores padded positions.
 */
import { ops, type Tensor } from '../../../../engine';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';
import {
  checkWindowFits,
  padAxis,
  paddingArg,
  samePads,
  windowOutput,
  windowArg,
  type PaddingMode,
} from './padding';

const LOWEST = -3.4e38;

export abstract class MaxPooling extends Layer {
  readonly poolSize: number[];
  readonly strides: number[];
  readonly padding: PaddingMode;

  constructor(
    className: string,
    readonly rank: 1 | 2,
    args: readonly unknown[],
  ) {
    const a = bindLayerArgs(className, ['poolSize', 'strides', 'padding', 'dataFormat'], [], args);
    super(className, a);
    this.poolSize =
      windowArg(a.poolSize, rank, `${className}: poolSize`) ?? new Array<number>(rank).fill(2);
    this.strides = windowArg(a.strides, rank, `${className}: strides`) ?? this.poolSize;
    this.padding = paddingArg(a.padding, className);
    if (a.dataFormat !== undefined && a.dataFormat !== null && a.dataFormat !== 'channels_last') {
      throw new TypeError(`${className}: only dataFormat 'channels_last' is supported`);
    }
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const spatial = inputShape
      .slice(1, 1 + this.rank)
      .map((n, i) => windowOutput(n, this.poolSize[i], this.strides[i], 1, this.padding));
    return [inputShape[0], ...spatial, inputShape[inputShape.length - 1]];
  }

  protected override buildWeights(): void {
    this.inputSpec = { ndim: this.rank + 2 };
  }

  protected call(x: Tensor): Tensor {
    const order = this.rank === 1 ? [0, 2, 1] : [0, 3, 1, 2];
    let xc = ops.permute(x.dtype === 'float32' ? x : ops.cast(x, 'float32'), order);
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
