/** nn.ConvTranspose1d and nn.ConvTranspose2d over ops/conv-transpose, initialised as PyTorch does. */
import type { DeviceSpec } from '../../devices/device-name';
import { convTranspose1d, convTranspose2d } from '../../ops/conv-transpose';
import type { Pair } from '../../ops/conv';
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
  unsupported,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { ndClasses } from './nd-class';
import { Parameter } from '../parameter';

export interface ConvTransposeOptions {
  inChannels?: number;
  outChannels?: number;
  kernelSize?: number | number[];
  stride?: number | number[];
  padding?: number | number[];
  outputPadding?: number | number[];
  groups?: number;
  bias?: boolean;
  dilation?: number | number[];
  paddingMode?: 'zeros';
  device?: DeviceSpec;
  dtype?: string;
}

const PARAMS = [
  'inChannels',
  'outChannels',
  'kernelSize',
  'stride',
  'padding',
  'outputPadding',
  'groups',
  'bias',
  'dilation',
  'paddingMode',
  'device',
  'dtype',
];

/** What ConvTranspose1d and ConvTranspose2d share: arguments, parameters, forward and repr. */
export abstract class ConvTransposeNd extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  declare readonly inChannels: number;
  declare readonly outChannels: number;
  declare readonly kernelSize: number[];
  declare readonly stride: number[];
  declare readonly padding: number[];
  declare readonly outputPadding: number[];
  declare readonly dilation: number[];
  declare readonly groups: number;

  constructor(name: string, dims: 1 | 2, args: unknown[]) {
    super();
    const a = bind({ name, params: PARAMS }, args);
    unsupported(a, name, { paddingMode: 'zeros' });
    checkFloatDtype(a.dtype, name);
    const inChannels = positiveInt(a.inChannels, `${name}: inChannels`);
    const outChannels = positiveInt(a.outChannels, `${name}: outChannels`);
    const groups = positiveInt(a.groups, `${name}: groups`, 1);
    if (inChannels % groups !== 0)
      throw new Error(`${name}: in_channels must be divisible by groups`);
    if (outChannels % groups !== 0)
      throw new Error(`${name}: out_channels must be divisible by groups`);
    const ones = new Array<number>(dims).fill(1);
    const zeros = new Array<number>(dims).fill(0);
    const kernelSize = tupleArg(a.kernelSize, dims, `${name}: kernelSize`);
    const fields = {
      inChannels,
      outChannels,
      kernelSize,
      stride: tupleArg(a.stride, dims, `${name}: stride`, ones),
      padding: tupleArg(a.padding, dims, `${name}: padding`, zeros),
      outputPadding: tupleArg(a.outputPadding, dims, `${name}: outputPadding`, zeros),
      dilation: tupleArg(a.dilation, dims, `${name}: dilation`, ones),
      groups,
    };
    for (const [key, value] of Object.entries(fields))
      Object.defineProperty(this, key, { value, enumerable: false });
    const device = deviceArg(a.device);
    // PyTorch's fan-in is the weight's dim 1 (out_channels / groups) times the kernel's size.
    const shape = [inChannels, outChannels / groups, ...kernelSize];
    const fanIn = (outChannels / groups) * kernelSize.reduce((x, y) => x * y, 1);
    this.weight = new Parameter(kaimingUniform(shape, device, Math.sqrt(5), fanIn));
    this.bias = boolArg(a.bias, `${name}: bias`, true)
      ? new Parameter(biasUniform([outChannels], fanIn, device))
      : null;
  }

  /**
   * forward(input, output_size=None): an output size picks the output padding that reaches it
   * (PyTorch's _output_padding), for strides whose output sizes are ambiguous.
   */
  override forward(input: Tensor, ...rest: unknown[]): Tensor {
    const name = this.constructor.name;
    const x = requireTensor(input, name);
    // output_size comes positionally or by name (Python's keyword arrives as an options object).
    const raw = bind({ name: `${name}.forward`, params: ['outputSize'] }, rest).outputSize;
    const outputSize =
      raw === undefined || raw === null
        ? null
        : tupleArg(raw, (raw as number[]).length, 'outputSize');
    checkInputDevice(name, x, this.weight);
    const dims = this.kernelSize.length;
    const spatial = dims === 1 ? 'L' : 'H, W';
    if (x.ndim !== dims + 1 && x.ndim !== dims + 2)
      throw shapeError(`${name}(${this.extraRepr()})`, `[N, ${this.inChannels}, ${spatial}]`, x);
    const outputPadding = outputSize ? this.paddingFor(x, outputSize) : this.outputPadding;
    const common = { groups: this.groups };
    if (dims === 1)
      return convTranspose1d(x, this.weight, this.bias, {
        ...common,
        stride: this.stride[0],
        padding: this.padding[0],
        outputPadding: outputPadding[0],
        dilation: this.dilation[0],
      });
    return convTranspose2d(x, this.weight, this.bias, {
      ...common,
      stride: this.stride as Pair,
      padding: this.padding as Pair,
      outputPadding: outputPadding as Pair,
      dilation: this.dilation as Pair,
    });
  }

  private paddingFor(x: Tensor, outputSize: number[]): number[] {
    const dims = this.kernelSize.length;
    const wanted = outputSize.slice(-dims);
    const sizes = x.shape.slice(-dims);
    return wanted.map((want, i) => {
      const least =
        (sizes[i] - 1) * this.stride[i] -
        2 * this.padding[i] +
        this.dilation[i] * (this.kernelSize[i] - 1) +
        1;
      if (want < least || want >= least + this.stride[i])
        throw new Error(
          `${this.constructor.name}: requested an output size of [${wanted.join(', ')}], but valid ` +
            `sizes range from ${least} to ${least + this.stride[i] - 1} (for an input of ${sizes[i]})`,
        );
      return want - least;
    });
  }

  override extraRepr(): string {
    const parts = [
      `${this.inChannels}, ${this.outChannels}, kernel_size=${pyTuple(this.kernelSize)}`,
      `stride=${pyTuple(this.stride)}`,
    ];
    if (this.padding.some((v) => v !== 0)) parts.push(`padding=${pyTuple(this.padding)}`);
    if (this.dilation.some((v) => v !== 1)) parts.push(`dilation=${pyTuple(this.dilation)}`);
    if (this.outputPadding.some((v) => v !== 0))
      parts.push(`output_padding=${pyTuple(this.outputPadding)}`);
    if (this.groups !== 1) parts.push(`groups=${this.groups}`);
    if (this.bias === null) parts.push('bias=False');
    return parts.join(', ');
  }
}

type ConvTransposePositional =
  | [
      inChannels: number,
      outChannels: number,
      kernelSize: number | number[],
      options?: ConvTransposeOptions,
    ]
  | [
      inChannels: number,
      outChannels: number,
      kernelSize: number | number[],
      stride?: number | number[],
      ...rest: unknown[],
    ];

export const [ConvTranspose1d, ConvTranspose2d] = ndClasses<
  ConvTransposeNd,
  ConvTransposeOptions,
  ConvTransposePositional
>(ConvTransposeNd, 'ConvTranspose');
export type ConvTranspose1d = ConvTransposeNd;
export type ConvTranspose2d = ConvTransposeNd;

libraryForward(ConvTranspose1d, ConvTranspose2d);
