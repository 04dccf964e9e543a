/**
 * Keras `Conv1DTranspose` / `Conv2DTranspose`, channels-last, with the kernel as Keras stores it:
 * [...k, filters, in_channels]. The output's length is Keras's `deconv_output_length`, and its
 * content TensorFlow's conv_transpose: the gradient of the convolution that would map the output
 * back to the input, i.e. the full transposed convolution (length (n − 1)·s + d·(k − 1) + 1)
 * cropped from TF's 'same' padding-before, and zero-extended where the requested length is
 * longer (strides above the kernel, output_padding). The full product is the engine's
 * convTranspose; the crop and zero extension are slices and pads, so gradients follow.
 */
import { ops, type Tensor } from '../../../../engine';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { ValueError } from '../../../tf-config';
import { type Activation } from '../activations';
import { type InitializerFn } from '../initializers';
import {
  activationBiasArgs,
  checkChannelsLast,
  checkStridesDilation,
  convInputChannels,
  convPaddingArg,
  convWindowArgs,
  filtersArg,
  kernelToEngine,
  pyTuple,
} from './conv-args';
import { asFloat, channelsFirst, channelsLast } from './conv-layout';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';
import { padAxis, windowArg, type PaddingMode } from './padding';

const PARAMS = [
  'filters',
  'kernelSize',
  'strides',
  'padding',
  'outputPadding',
  'dataFormat',
  'dilationRate',
  'activation',
  'useBias',
  'kernelInitializer',
  'biasInitializer',
];

/** Keras's deconv_output_length for one spatial axis. */
export function deconvOutputLength(
  length: number | null,
  kernel: number,
  padding: PaddingMode,
  outputPadding: number | null,
  stride: number,
  dilation: number,
): number | null {
  if (length === null) return null;
  const k = kernel + (kernel - 1) * (dilation - 1);
  if (outputPadding === null)
    return padding === 'valid' ? length * stride + Math.max(k - stride, 0) : length * stride;
  const pad = padding === 'same' ? Math.floor(k / 2) : 0;
  return (length - 1) * stride + k - 2 * pad + outputPadding;
}

export abstract class ConvTranspose extends Layer {
  readonly filters: number;
  readonly kernelSize: number[];
  readonly strides: number[];
  readonly padding: PaddingMode;
  readonly outputPadding: number[] | null;
  readonly dilationRate: number[];
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
    // Keras's message; 'causal' is refused as for 2-D convolutions
    this.padding = convPaddingArg(a.padding, 2, className) as PaddingMode;
    this.outputPadding = windowArg(a.outputPadding, rank, `${className}: outputPadding`);
    checkChannelsLast(a.dataFormat, className);
    checkStridesDilation(this.kernelSize, this.strides, this.dilationRate);
    if (this.outputPadding?.some((p, i) => p >= this.strides[i]))
      throw new ValueError(
        'Strides must be greater than output padding. ' +
          `Received strides=${pyTuple(this.strides)}, output_padding=${pyTuple(this.outputPadding)}.`,
      );
    ({
      activation: this.activation,
      useBias: this.useBias,
      kernelInitializer: this.kernelInitializer,
      biasInitializer: this.biasInitializer,
    } = activationBiasArgs(a, className));
  }

  private lengths(inputShape: ShapeSpec): (number | null)[] {
    return inputShape
      .slice(1, 1 + this.rank)
      .map((n, i) =>
        deconvOutputLength(
          n,
          this.kernelSize[i],
          this.padding,
          this.outputPadding?.[i] ?? null,
          this.strides[i],
          this.dilationRate[i],
        ),
      );
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return [inputShape[0], ...this.lengths(inputShape), this.filters];
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const channels = convInputChannels(this.name, this.rank, inputShape);
    this.kernel = this.addWeight(
      'kernel',
      [...this.kernelSize, this.filters, channels],
      this.kernelInitializer,
    );
    if (this.useBias) this.bias = this.addWeight('bias', [this.filters], this.biasInitializer);
    this.inputSpec = { ndim: this.rank + 2, axes: { [-1]: channels } };
  }

  protected call(x: Tensor): Tensor {
    const kernel = this.kernel as Tensor;
    const xc = channelsFirst(asFloat(x), this.rank);
    // [...k, F, C] → the engine's [C, F, ...k]
    const w = kernelToEngine(kernel, this.rank);
    let y =
      this.rank === 1
        ? ops.convTranspose1d(xc, w, null, {
            stride: this.strides[0],
            dilation: this.dilationRate[0],
          })
        : ops.convTranspose2d(xc, w, null, {
            stride: [this.strides[0], this.strides[1]],
            dilation: [this.dilationRate[0], this.dilationRate[1]],
          });
    const wanted = this.lengths([null, ...x.shape.slice(1)]) as number[];
    wanted.forEach((out, i) => {
      const axis = 2 + i;
      const n = x.shape[1 + i];
      const full = y.shape[axis];
      // TF pads the forward convolution of an `out`-long input this much before (zero: 'valid').
      const k = (this.kernelSize[i] - 1) * this.dilationRate[i] + 1;
      const total = this.padding === 'same' ? Math.max((n - 1) * this.strides[i] + k - out, 0) : 0;
      const before = Math.floor(total / 2);
      const end = Math.min(before + out, full);
      if (before > 0 || end < full) y = ops.slice(y, axis, before, end);
      if (end - before < out) y = padAxis(y, axis, 0, out - (end - before), 0);
    });
    let out = channelsLast(y, this.rank);
    if (this.bias) out = ops.add(out, this.bias);
    return this.activation.fn(out);
  }
}

/** `Conv2DTranspose(filters, kernelSize, { strides, padding, outputPadding, dilationRate, … })`. */
export const [Conv1DTranspose, Conv2DTranspose] = ndClasses<ConvTranspose, unknown, unknown[]>(
  ConvTranspose,
  'Conv',
  'DTranspose',
);
export type Conv2DTranspose = ConvTranspose;
