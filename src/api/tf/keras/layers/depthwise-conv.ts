/**
 * Keras `DepthwiseConv1D` / `DepthwiseConv2D` and `SeparableConv1D` / `SeparableConv2D`,
 * channels-last. The depthwise kernel is stored as Keras stores it, [...k, C, depth_multiplier],
 * and output channel c·M + m is input channel c through filter m (TensorFlow's
 * depthwise_conv2d order). It runs as the engine's grouped convolution with C groups, whose
 * output channel o belongs to group ⌊o / M⌋ — the same order, so the weight is only permuted.
 * A separable convolution is that depthwise step (no bias) followed by a 1×1 convolution.
 */
import { ops, type Tensor } from '../../../../engine';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { asInt, optional, type BoundArgs } from '../../../args';
import { ValueError } from '../../../tf-config';
import { type Activation } from '../activations';
import { getInitializer, type InitializerFn } from '../initializers';
import {
  activationBiasArgs,
  checkChannelsLast,
  checkStridesDilation,
  convInputChannels,
  convPaddingArg,
  convWindowArgs,
  filtersArg,
  kernelToEngine,
} from './conv-args';
import {
  asFloat,
  channelsFirst,
  channelsLast,
  convolveChannelsFirst,
  padForWindow,
} from './conv-layout';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';
import { windowOutput, type PaddingMode } from './padding';

const WINDOW = ['kernelSize', 'strides', 'padding'];
const COMMON = ['dataFormat', 'dilationRate', 'depthMultiplier', 'activation', 'useBias'];

/** What both families share: the window, the multiplier and the depthwise kernel. */
abstract class DepthwiseBase extends Layer {
  readonly kernelSize: number[];
  readonly strides: number[];
  readonly padding: PaddingMode;
  readonly dilationRate: number[];
  readonly depthMultiplier: number;
  readonly activation: Activation;
  readonly useBias: boolean;
  protected readonly depthwiseInitializer: InitializerFn;
  protected readonly biasInitializer: InitializerFn;
  depthwiseKernel: Tensor | null = null;
  bias: Tensor | null = null;

  protected constructor(
    className: string,
    readonly rank: 1 | 2,
    a: BoundArgs,
  ) {
    super(className, a);
    ({
      kernelSize: this.kernelSize,
      strides: this.strides,
      dilationRate: this.dilationRate,
    } = convWindowArgs(a, rank, className));
    // Keras allows 'causal' only in Conv1D: rank 2's rule refuses it here, with Keras's message.
    this.padding = convPaddingArg(a.padding, 2, className) as PaddingMode;
    checkChannelsLast(a.dataFormat, className);
    checkStridesDilation(this.kernelSize, this.strides, this.dilationRate);
    this.depthMultiplier = optional(a.depthMultiplier, asInt, `${className}: depthMultiplier`, 1);
    if (this.depthMultiplier <= 0)
      throw new ValueError(
        'Invalid value for argument `depth_multiplier`. Expected a strictly positive value. ' +
          `Received depth_multiplier=${this.depthMultiplier}.`,
      );
    ({
      activation: this.activation,
      useBias: this.useBias,
      kernelInitializer: this.depthwiseInitializer,
      biasInitializer: this.biasInitializer,
    } = activationBiasArgs(a, className, 'depthwiseInitializer'));
  }

  protected spatialOutput(inputShape: ShapeSpec): (number | null)[] {
    return inputShape
      .slice(1, 1 + this.rank)
      .map((n, i) =>
        windowOutput(n, this.kernelSize[i], this.strides[i], this.dilationRate[i], this.padding),
      );
  }

  /** The input's channels, checking the rank as Keras's InputSpec does. */
  protected channelsOf(inputShape: ShapeSpec): number {
    return convInputChannels(this.name, this.rank, inputShape);
  }

  /** x [N, ...spatial, C] → the depthwise product channels-first [N, C·M, ...spatial'] (no bias). */
  protected depthwise(x: Tensor, bias: Tensor | null): Tensor {
    const kernel = this.depthwiseKernel as Tensor;
    const channels = kernel.shape[this.rank];
    const { padded, symmetric } = padForWindow(
      this.name,
      channelsFirst(asFloat(x), this.rank),
      this,
    );
    // [...k, C, M] → [C, M, ...k] → [C·M, 1, ...k]: output channel c·M + m in group c.
    const order = this.rank === 1 ? [1, 2, 0] : [2, 3, 0, 1];
    const w = ops.reshape(ops.permute(kernel, order), [
      channels * this.depthMultiplier,
      1,
      ...this.kernelSize,
    ]);
    return convolveChannelsFirst(padded, w, bias, this, symmetric, channels);
  }
}

export abstract class DepthwiseConv extends DepthwiseBase {
  constructor(className: string, rank: 1 | 2, args: readonly unknown[]) {
    const a = bindLayerArgs(
      className,
      [...WINDOW, 'depthMultiplier', ...COMMON.slice(0, 2), ...COMMON.slice(3)],
      ['depthwiseInitializer', 'biasInitializer'],
      args,
    );
    super(className, rank, a);
  }

  /** Keras 3's name for the depthwise kernel (tf.keras 2 calls it `depthwise_kernel`). */
  get kernel(): Tensor | null {
    return this.depthwiseKernel;
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const c = inputShape[inputShape.length - 1];
    return [
      inputShape[0],
      ...this.spatialOutput(inputShape),
      c === null ? null : c * this.depthMultiplier,
    ];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const channels = this.channelsOf(inputShape);
    this.depthwiseKernel = this.addWeight(
      'depthwise_kernel',
      [...this.kernelSize, channels, this.depthMultiplier],
      this.depthwiseInitializer,
    );
    if (this.useBias)
      this.bias = this.addWeight('bias', [channels * this.depthMultiplier], this.biasInitializer);
    this.inputSpec = { ndim: this.rank + 2, axes: { [-1]: channels } };
  }

  protected call(x: Tensor): Tensor {
    return this.activation.fn(channelsLast(this.depthwise(x, this.bias), this.rank));
  }
}

export abstract class SeparableConv extends DepthwiseBase {
  readonly filters: number;
  private readonly pointwiseInitializer: InitializerFn;
  pointwiseKernel: Tensor | null = null;

  constructor(className: string, rank: 1 | 2, args: readonly unknown[]) {
    const a = bindLayerArgs(
      className,
      ['filters', ...WINDOW, ...COMMON],
      ['depthwiseInitializer', 'pointwiseInitializer', 'biasInitializer'],
      args,
    );
    super(className, rank, a);
    this.filters = filtersArg(a.filters, className);
    this.pointwiseInitializer = getInitializer(
      a.pointwiseInitializer ?? 'glorot_uniform',
      `${className}: pointwiseInitializer`,
    );
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return [inputShape[0], ...this.spatialOutput(inputShape), this.filters];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const channels = this.channelsOf(inputShape);
    const ones = new Array<number>(this.rank).fill(1);
    this.depthwiseKernel = this.addWeight(
      'depthwise_kernel',
      [...this.kernelSize, channels, this.depthMultiplier],
      this.depthwiseInitializer,
    );
    this.pointwiseKernel = this.addWeight(
      'pointwise_kernel',
      [...ones, channels * this.depthMultiplier, this.filters],
      this.pointwiseInitializer,
    );
    if (this.useBias) this.bias = this.addWeight('bias', [this.filters], this.biasInitializer);
    this.inputSpec = { ndim: this.rank + 2, axes: { [-1]: channels } };
  }

  protected call(x: Tensor): Tensor {
    const pointwise = this.pointwiseKernel as Tensor;
    const d = this.depthwise(x, null);
    // [...1, C·M, F] → [F, C·M, ...1]
    const w = kernelToEngine(pointwise, this.rank);
    const ones = new Array<number>(this.rank).fill(1);
    const unit = { kernelSize: ones, strides: ones, dilationRate: ones, padding: 'valid' as const };
    const y = convolveChannelsFirst(d, w, this.bias, unit, [0, 0], 1);
    return this.activation.fn(channelsLast(y, this.rank));
  }
}

/** `DepthwiseConv2D(kernelSize, { strides, padding, depthMultiplier, dilationRate, … })`. */
export const [DepthwiseConv1D, DepthwiseConv2D] = ndClasses<DepthwiseConv, unknown, unknown[]>(
  DepthwiseConv,
  'DepthwiseConv',
  'D',
);
export type DepthwiseConv2D = DepthwiseConv;

/** `SeparableConv2D(filters, kernelSize, { strides, padding, depthMultiplier, … })`. */
export const [SeparableConv1D, SeparableConv2D] = ndClasses<SeparableConv, unknown, unknown[]>(
  SeparableConv,
  'SeparableConv',
  'D',
);
export type SeparableConv2D = SeparableConv;
