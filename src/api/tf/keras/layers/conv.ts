/**
 * Keras `Conv1D` and `Conv2D`, channels-last: inputs [N, L, C] / [N, H, W, C], kernels
 * [k, C/groups, F] / [kh, kw, C/groups, F] as Keras stores them. The engine's convolutions are
 * channels-first, so the wrapper permutes input and kernel views in, and the output back (no
 * copies of the data beyond what the engine's im2col makes anyway; conv-layout.ts). `groups` is
 * the engine's grouped convolution (filter f in group ⌊f / (F/groups)⌋, as in Keras); Conv1D's
 * `padding='causal'` pads dilation·(k − 1) zeros on the left.
 */
import { type Tensor } from '../../../../engine';
import { asInt, optional } from '../../../args';
import { ValueError } from '../../../tf-config';
import { type Activation } from '../activations';
import { type InitializerFn } from '../initializers';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';
import {
  asFloat,
  channelsFirst,
  channelsLast,
  convolveChannelsFirst,
  padForWindow,
} from './conv-layout';
import {
  activationBiasArgs,
  checkChannelsLast,
  checkStridesDilation,
  convPaddingArg,
  convWindowArgs,
  filtersArg,
  kernelToEngine,
} from './conv-args';
import { windowOutput, type PaddingMode } from './padding';

const PARAMS = [
  'filters',
  'kernelSize',
  'strides',
  'padding',
  'dataFormat',
  'dilationRate',
  'groups',
  'activation',
  'useBias',
  'kernelInitializer',
  'biasInitializer',
];

export abstract class Conv extends Layer {
  readonly filters: number;
  readonly kernelSize: number[];
  readonly strides: number[];
  /** 'causal' (Conv1D only) pads dilation·(k − 1) zeros on the left, so step t sees only ≤ t. */
  readonly padding: PaddingMode | 'causal';
  readonly dilationRate: number[];
  readonly groups: number;
  readonly activation: Activation;
  readonly useBias: boolean;
  private readonly kernelInitializer: InitializerFn;
  private readonly biasInitializer: InitializerFn;
  kernel: Tensor | null = null;
  bias: Tensor | null = null;

  constructor(
    className: string,
    readonly rank: 1 | 2,
    args: readonly unknown[],
  ) {
    const a = bindLayerArgs(className, PARAMS, [], args);
    super(className, a);
    this.filters = filtersArg(a.filters, className);
    ({
      kernelSize: this.kernelSize,
      strides: this.strides,
      dilationRate: this.dilationRate,
    } = convWindowArgs(a, rank, className));
    this.padding = convPaddingArg(a.padding, rank, className);
    checkChannelsLast(a.dataFormat, className);
    this.groups = optional(a.groups, asInt, `${className}: groups`, 1);
    if (this.groups <= 0)
      throw new ValueError(
        `The number of groups must be a positive integer. Received: groups=${this.groups}.`,
      );
    if (this.filters % this.groups !== 0)
      throw new ValueError(
        'The number of filters must be evenly divisible by the number of groups. ' +
          `Received: groups=${this.groups}, filters=${this.filters}.`,
      );
    checkStridesDilation(this.kernelSize, this.strides, this.dilationRate);
    ({
      activation: this.activation,
      useBias: this.useBias,
      kernelInitializer: this.kernelInitializer,
      biasInitializer: this.biasInitializer,
    } = activationBiasArgs(a, className));
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const spatial = inputShape.slice(1, 1 + this.rank).map((n, i) =>
      windowOutput(
        n,
        this.kernelSize[i],
        this.strides[i],
        this.dilationRate[i],
        // causal pads d·(k − 1) in all, as 'same' does: the same length comes out
        this.padding === 'causal' ? 'same' : this.padding,
      ),
    );
    return [inputShape[0], ...spatial, this.filters];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const channels = inputShape[inputShape.length - 1];
    if (inputShape.length !== this.rank + 2 || channels === null) {
      throw new Error(
        `Input 0 of layer "${this.name}" is incompatible with the layer: expected min_ndim=${this.rank + 2}, ` +
          `found ndim=${inputShape.length}. Full shape received: ${JSON.stringify(inputShape)}`,
      );
    }
    if (channels % this.groups !== 0) {
      throw new ValueError(
        `The number of input channels must be evenly divisible by the number of groups. ` +
          `Received groups=${this.groups}, but the input has ${channels} channels ` +
          `(full input shape is ${formatShapeSpec(inputShape)}).`,
      );
    }
    this.kernel = this.addWeight(
      'kernel',
      [...this.kernelSize, channels / this.groups, this.filters],
      this.kernelInitializer,
    );
    if (this.useBias) this.bias = this.addWeight('bias', [this.filters], this.biasInitializer);
    this.inputSpec = { ndim: this.rank + 2, axes: { [-1]: channels } };
  }

  protected call(x: Tensor): Tensor {
    const kernel = this.kernel as Tensor;
    const { padded, symmetric } = padForWindow(
      this.name,
      channelsFirst(asFloat(x), this.rank),
      this,
    );
    // [k, C/G, F] → [F, C/G, k]; [kh, kw, C/G, F] → [F, C/G, kh, kw]
    const w = kernelToEngine(kernel, this.rank);
    const y = convolveChannelsFirst(padded, w, this.bias, this, symmetric, this.groups);
    return this.activation.fn(channelsLast(y, this.rank));
  }
}

/**
 * `Conv1D({ filters, kernelSize, strides, padding, activation })` over [N, steps, channels] and
 * `Conv2D(filters, kernelSize, { strides, padding, activation })` over [N, H, W, channels].
 */
export const [Conv1D, Conv2D] = ndClasses<Conv, unknown, unknown[]>(Conv, 'Conv', 'D');
export type Conv1D = Conv;
export type Conv2D = Conv;
