/**
 * Keras `Conv1D` and `Conv2D`, channels-last: inputs [N, L, C] / [N, H, W, C], kernels
 * [k, C, F] / [kh, kw, C, F] as Keras stores them. The engine's convolutions are channels-first,
 * so the wrapper permutes input and kernel views in, and the output back (no copies of the data
 * beyond what the engine's im2col makes anyway).
 */
import { ops, type Tensor } from '../../../../engine';
import { asBool, asInt, optional } from '../../../args';
import { getActivation, type Activation } from '../activations';
import { getInitializer, type InitializerFn } from '../initializers';
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
  readonly padding: PaddingMode;
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
    this.filters = asInt(a.filters, `${className}: filters`);
    if (a.kernelSize === undefined)
      throw new TypeError(`${className}() missing required argument 'kernelSize'`);
    const ones = () => new Array<number>(rank).fill(1);
    this.kernelSize = windowArg(a.kernelSize, rank, `${className}: kernelSize`) ?? ones();
    this.strides = windowArg(a.strides, rank, `${className}: strides`) ?? ones();
    this.dilationRate = windowArg(a.dilationRate, rank, `${className}: dilationRate`) ?? ones();
    this.padding = paddingArg(a.padding, className);
    if (a.dataFormat !== undefined && a.dataFormat !== null && a.dataFormat !== 'channels_last') {
      throw new TypeError(`${className}: only dataFormat 'channels_last' is supported`);
    }
    if (a.groups !== undefined && a.groups !== 1)
      throw new TypeError(`${className}: groups other than 1 are not supported`);
    this.activation = getActivation(a.activation, className);
    this.useBias = optional(a.useBias, asBool, `${className}: useBias`, true);
    this.kernelInitializer = getInitializer(
      a.kernelInitializer ?? 'glorot_uniform',
      `${className}: kernelInitializer`,
    );
    this.biasInitializer = getInitializer(
      a.biasInitializer ?? 'zeros',
      `${className}: biasInitializer`,
    );
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    const spatial = inputShape
      .slice(1, 1 + this.rank)
      .map((n, i) =>
        windowOutput(n, this.kernelSize[i], this.strides[i], this.dilationRate[i], this.padding),
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
    this.kernel = this.addWeight(
      'kernel',
      [...this.kernelSize, channels, this.filters],
      this.kernelInitializer,
    );
    if (this.useBias) this.bias = this.addWeight('bias', [this.filters], this.biasInitializer);
    this.inputSpec = { ndim: this.rank + 2, axes: { [-1]: channels } };
  }

  protected call(x: Tensor): Tensor {
    const kernel = this.kernel as Tensor;
    const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    // Channels-last [N, ...spatial, C] → channels-first [N, C, ...spatial], padded where TF's
    // 'same' is asymmetric (the engine pads symmetrically).
    const order = this.rank === 1 ? [0, 2, 1] : [0, 3, 1, 2];
    let xc = ops.permute(input, order);
    const pads = input.shape.slice(1, 1 + this.rank).map((n, i) => {
      checkWindowFits(this.name, n, this.kernelSize[i], this.dilationRate[i], this.padding);
      return samePads(n, this.kernelSize[i], this.strides[i], this.dilationRate[i], this.padding);
    });
    const symmetric = pads.map(([b, e]) => (b === e ? b : 0));
    pads.forEach(([b, e], i) => {
      if (b !== e) xc = padAxis(xc, 2 + i, b, e, 0);
    });
    let y: Tensor;
    if (this.rank === 1) {
      const w = ops.permute(kernel, [2, 1, 0]); // [k, C, F] → [F, C, k]
      y = ops.conv1d(xc, w, this.bias, {
        stride: this.strides[0],
        dilation: this.dilationRate[0],
        padding: symmetric[0],
      });
      y = ops.permute(y, [0, 2, 1]);
    } else {
      const w = ops.permute(kernel, [3, 2, 0, 1]); // [kh, kw, C, F] → [F, C, kh, kw]
      y = ops.conv2d(xc, w, this.bias, {
        stride: [this.strides[0], this.strides[1]],
        dilation: [this.dilationRate[0], this.dilationRate[1]],
        padding: [symmetric[0], symmetric[1]],
      });
      y = ops.permute(y, [0, 2, 3, 1]);
    }
    return this.activation.fn(y);
  }
}

/**
 * `Conv1D({ filters, kernelSize, strides, padding, activation })` over [N, steps, channels] and
 * `Conv2D(filters, kernelSize, { strides, padding, activation })` over [N, H, W, channels].
 */
export const [Conv1D, Conv2D] = ndClasses<Conv, unknown, unknown[]>(Conv, 'Conv', 'D');
export type Conv1D = Conv;
export type Conv2D = Conv;
