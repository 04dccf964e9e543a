/**
 * What Keras's MaxPooling and AveragePooling layers share: the arguments (poolSize default 2,
 * strides default poolSize, padding, channels-last only), the output shape, the input spec and
 * the permute to the engine's channels-first layout. Each subclass does its own pooling.
 */
import { type Tensor } from '../../../../engine';
import { checkChannelsLast } from './conv-args';
import { asFloat, channelsFirst } from './conv-layout';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';
import { paddingArg, windowArg, windowOutput, type PaddingMode } from './padding';

export abstract class Pooling extends Layer {
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
    checkChannelsLast(a.dataFormat, className);
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

  /** x [N, ...spatial, C] as float32 channels-first [N, C, ...spatial] (a view). */
  protected channelsFirstInput(x: Tensor): Tensor {
    return channelsFirst(asFloat(x), this.rank);
  }
}
