/**
 * Keras `Conv1D` and `Conv2D`, channels-last: inputs [N, L, C] / [N, H, W, C], kernels
 * [k, C/groups, F] / [kh, kw, C/groups, F] as Keras stores them. The engine's convolutions are
 * channels-first, so the wrapper permutes input and kernel views in, and the output back (no
 * copies of the data beyond what the engine's im2col makes anyway; conv-layout.ts). `groups` is
 * the engine's grouped convolution (filter f in group ⌊f / (F/groups)⌋, as in Keras); Conv1D's
 * `padding='causal'` pads dilation·(k − 1) zeros on the left.
 */
import { ops, type Tensor } from '../../../../engine';
import { asBool, asInt, optional } from '../../../args';
import { ValueError } from '../../../tf-config';
import { getActivation, type Activation } from '../activations';
import { getInitializer, type InitializerFn } from '../initializers';
import { ndClasses } from '../../../../engine/nn/layers/nd-class';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';
import {
  asFloat,
  channelsFirst,
  channelsLast,
  convolveChannelsFirst,
  padForWindow,
} from './conv-layout';
import { paddingArg, windowOutput, windowArg, type PaddingMode } from './padding';

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
    this.filters = asInt(a.filters, `${className}: filters`);
    if (this.filters <= 0)
      throw new ValueError(
        `Invalid value for argument \`filters\`. Expected a strictly positive value. Received filters=${this.filters}.`,
      );
    if (a.kernelSize === undefined)
      throw new TypeError(`${className}() missing required argument 'kernelSize'`);
    const ones = () => new Array<number>(rank).fill(1);
    this.kernelSize = windowArg(a.kernelSize, rank, `${className}: kernelSize`) ?? ones();
    this.strides = windowArg(a.strides, rank, `${className}: strides`) ?? ones();
    this.dilationRate = windowArg(a.dilationRate, rank, `${className}: dilationRate`) ?? ones();
    this.padding = convPaddingArg(a.padding, rank, className);
    if (a.dataFormat !== undefined && a.dataFormat !== null && a.dataFormat !== 'channels_last') {
      throw new TypeError(`${className}: only dataFormat 'channels_last' is supported`);
    }
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
    const w = ops.permute(kernel, this.rank === 1 ? [2, 1, 0] : [3, 2, 0, 1]);
    const y = convolveChannelsFirst(padded, w, this.bias, this, symmetric, this.groups);
    return this.activation.fn(channelsLast(y, this.rank));
  }
}

/** Keras's standardize_padding: 'valid' or 'same', and 'causal' for 1-D convolutions. */
export function convPaddingArg(
  value: unknown,
  rank: number,
  className: string,
): PaddingMode | 'causal' {
  const v = value === undefined || value === null ? 'valid' : String(value).toLowerCase();
  if (v === 'causal' && rank === 1) return 'causal';
  if (v === 'causal' || (v !== 'valid' && v !== 'same')) {
    const allowed = rank === 1 ? "{'valid', 'same', 'causal'}" : "{'valid', 'same'}";
    throw new ValueError(
      `The \`padding\` argument must be a list/tuple or one of ${allowed}. Received: ${v}`,
    );
  }
  return paddingArg(v, className);
}

/** Keras refuses strides and dilation both above 1 (TensorFlow's kernels do not combine them). */
export function checkStridesDilation(
  kernelSize: readonly number[],
  strides: readonly number[],
  dilationRate: readonly number[],
): void {
  const tuple = (v: readonly number[]) => `(${v.join(', ')}${v.length === 1 ? ',' : ''})`;
  if (kernelSize.some((k) => k <= 0))
    throw new ValueError(
      `The argument \`kernel_size\` cannot contain 0. Received kernel_size=${tuple(kernelSize)}.`,
    );
  if (strides.some((k) => k <= 0))
    throw new ValueError(
      `The argument \`strides\` cannot contains 0. Received strides=${tuple(strides)}`,
    );
  if (Math.max(...strides) > 1 && Math.max(...dilationRate) > 1)
    throw new ValueError(
      '`strides > 1` not supported in conjunction with `dilation_rate > 1`. ' +
        `Received: strides=${tuple(strides)} and dilation_rate=${tuple(dilationRate)}`,
    );
}

/**
 * `Conv1D({ filters, kernelSize, strides, padding, activation })` over [N, steps, channels] and
 * `Conv2D(filters, kernelSize, { strides, padding, activation })` over [N, H, W, channels].
 */
export const [Conv1D, Conv2D] = ndClasses<Conv, unknown, unknown[]>(Conv, 'Conv', 'D');
export type Conv1D = Conv;
export type Conv2D = Conv;
