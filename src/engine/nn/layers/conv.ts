/** nn.Conv1d and nn.Conv2d (NCL / NCHW, zero padding, stride, dilation), initialised as PyTorch does. */
import type { DeviceSpec } from '../../devices/device-name';
import { conv1d, conv2d, samePadding, type Pair } from '../../ops/conv';
import { pad, type PadMode } from '../../ops/resample';
import type { Tensor } from '../../tensor';
import { checkInputDevice } from '../device-errors';
import { biasUniform, kaimingUniform } from '../init';
import {
  bind,
  boolArg,
  checkFloatDtype,
  deviceArg,
  positiveInt,
  pyTuple,
  requireTensor,
  shapeError,
  tupleArg,
  type BoundArgs,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { ndClasses } from './nd-class';
import { Parameter } from '../parameter';

export interface ConvOptions {
  inChannels?: number;
  outChannels?: number;
  kernelSize?: number | number[];
  stride?: number | number[];
  padding?: number | number[] | 'same' | 'valid';
  dilation?: number | number[];
  groups?: number;
  bias?: boolean;
  paddingMode?: 'zeros' | PadMode;
  device?: DeviceSpec;
  dtype?: string;
}

const PARAMS = [
  'inChannels',
  'outChannels',
  'kernelSize',
  'stride',
  'padding',
  'dilation',
  'groups',
  'bias',
  'paddingMode',
  'device',
  'dtype',
];

/** What Conv1d and Conv2d share: arguments, parameters, checks, forward and repr. */
export abstract class ConvNd extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  declare readonly inChannels: number;
  declare readonly outChannels: number;
  declare readonly kernelSize: number[];
  declare readonly stride: number[];
  declare readonly padding: number[] | 'same' | 'valid';
  declare readonly dilation: number[];
  declare readonly groups: number;
  declare readonly paddingMode: 'zeros' | PadMode;

  constructor(name: string, dims: number, args: unknown[]) {
    super();
    const a: BoundArgs = bind({ name, params: PARAMS }, args);
    const paddingMode = a.paddingMode ?? 'zeros';
    if (!['zeros', 'reflect', 'replicate', 'circular'].includes(paddingMode as string))
      throw new Error(
        `${name}: padding_mode must be one of 'zeros', 'reflect', 'replicate' or 'circular', ` +
          `but got padding_mode='${String(paddingMode)}'`,
      );
    checkFloatDtype(a.dtype, name);
    const inChannels = positiveInt(a.inChannels, `${name}: inChannels`);
    const outChannels = positiveInt(a.outChannels, `${name}: outChannels`);
    const groups = positiveInt(a.groups, `${name}: groups`, 1);
    if (inChannels % groups !== 0)
      throw new Error(`${name}: in_channels must be divisible by groups`);
    if (outChannels % groups !== 0)
      throw new Error(`${name}: out_channels must be divisible by groups`);
    const kernelSize = tupleArg(a.kernelSize, dims, `${name}: kernelSize`);
    const stride = tupleArg(a.stride, dims, `${name}: stride`, new Array<number>(dims).fill(1));
    const padding =
      a.padding === 'same' || a.padding === 'valid'
        ? a.padding
        : tupleArg(a.padding, dims, `${name}: padding`, new Array<number>(dims).fill(0));
    const dilation = tupleArg(
      a.dilation,
      dims,
      `${name}: dilation`,
      new Array<number>(dims).fill(1),
    );
    if (padding === 'same' && stride.some((s) => s !== 1)) {
      throw new Error(`${name}: padding='same' is not supported for strided convolutions`);
    }
    const device = deviceArg(a.device);
    Object.defineProperties(this, {
      inChannels: { value: inChannels, enumerable: false },
      outChannels: { value: outChannels, enumerable: false },
      kernelSize: { value: kernelSize, enumerable: false },
      stride: { value: stride, enumerable: false },
      padding: { value: padding, enumerable: false },
      dilation: { value: dilation, enumerable: false },
      groups: { value: groups, enumerable: false },
      paddingMode: { value: paddingMode, enumerable: false },
    });
    const shape = [outChannels, inChannels / groups, ...kernelSize];
    const fanIn = (inChannels / groups) * kernelSize.reduce((x, y) => x * y, 1);
    this.weight = new Parameter(kaimingUniform(shape, device));
    this.bias = boolArg(a.bias, `${name}: bias`, true)
      ? new Parameter(biasUniform([outChannels], fanIn, device))
      : null;
  }

  protected title(): string {
    return `${this.constructor.name}(${this.inChannels}, ${this.outChannels}, kernel_size=${pyTuple(this.kernelSize)})`;
  }

  /** Checks rank and channels; returns the input. */
  protected checked(input: unknown, spatial: string): Tensor {
    const x = requireTensor(input, this.constructor.name);
    checkInputDevice(this.constructor.name, x, this.weight);
    const dims = this.kernelSize.length;
    const batched = x.ndim === dims + 2;
    if (!batched && x.ndim !== dims + 1) {
      throw shapeError(
        this.title(),
        `[N, ${this.inChannels}, ${spatial}]`,
        x,
        `a ${dims + 2}-D batch or one ${dims + 1}-D sample`,
      );
    }
    const channels = x.shape[batched ? 1 : 0];
    if (channels !== this.inChannels) {
      throw shapeError(
        this.title(),
        `[N, ${this.inChannels}, ${spatial}]`,
        x,
        `weight of size [${this.weight.shape.join(', ')}] expects ${this.inChannels} input channels, got ${channels}`,
      );
    }
    return x;
  }

  /**
   * padding_mode other than zeros: x padded by that mode first (PyTorch's
   * _reversed_padding_repeated_twice, 'same' split as the op splits it), then a convolution
   * without padding.
   */
  private padded(x: Tensor): Tensor {
    const mode = this.paddingMode as PadMode;
    const p = this.padding;
    const sides = this.kernelSize.map((k, i) =>
      p === 'valid'
        ? [0, 0]
        : p === 'same'
          ? samePadding(k, this.dilation[i], this.stride[i], this.constructor.name)
          : [p[i], p[i]],
    );
    return pad(x, sides.reverse().flat(), mode);
  }

  override forward(input: Tensor): Tensor {
    const own = this.paddingMode === 'zeros';
    const p = own ? this.padding : this.kernelSize.map(() => 0);
    if (this.kernelSize.length === 1) {
      const checked = this.checked(input, 'L');
      const x = own ? checked : this.padded(checked);
      return conv1d(x, this.weight, this.bias, {
        stride: this.stride[0],
        dilation: this.dilation[0],
        padding: typeof p === 'string' ? p : p[0],
        groups: this.groups,
      });
    }
    const checked = this.checked(input, 'H, W');
    const x = own ? checked : this.padded(checked);
    return conv2d(x, this.weight, this.bias, {
      stride: this.stride as Pair,
      dilation: this.dilation as Pair,
      padding: typeof p === 'string' ? p : (p as Pair),
      groups: this.groups,
    });
  }

  override extraRepr(): string {
    const parts = [
      `${this.inChannels}, ${this.outChannels}, kernel_size=${pyTuple(this.kernelSize)}`,
      `stride=${pyTuple(this.stride)}`,
    ];
    const p = this.padding;
    if (typeof p === 'string') parts.push(`padding=${p}`);
    else if (p.some((v) => v !== 0)) parts.push(`padding=${pyTuple(p)}`);
    if (this.dilation.some((v) => v !== 1)) parts.push(`dilation=${pyTuple(this.dilation)}`);
    if (this.groups !== 1) parts.push(`groups=${this.groups}`);
    if (this.bias === null) parts.push('bias=False');
    if (this.paddingMode !== 'zeros') parts.push(`padding_mode=${this.paddingMode}`);
    return parts.join(', ');
  }
}

/** PyTorch's positional ways to call Conv1d and Conv2d: options last, or stride and on. */
type ConvPositional =
  | [inChannels: number, outChannels: number, kernelSize: number | number[], options?: ConvOptions]
  | [
      inChannels: number,
      outChannels: number,
      kernelSize: number | number[],
      stride?: number | number[],
      ...rest: unknown[],
    ];

export const [Conv1d, Conv2d] = ndClasses<ConvNd, ConvOptions, ConvPositional>(ConvNd, 'Conv');
export type Conv1d = ConvNd;
export type Conv2d = ConvNd;

libraryForward(Conv2d, Conv1d);
