/** nn.MaxPool1d, nn.MaxPool2d and nn.AdaptiveMaxPool2d over the engine's max-pooling op. */
import {
  maxPool1d,
  maxPool2d,
  adaptiveMaxPool1d,
  adaptiveMaxPool2d,
  type Pair,
} from '../../ops/pool';
import type { Tensor } from '../../tensor';
import {
  bind,
  boolArg,
  pyTuple,
  requireTensor,
  shapeError,
  tupleArg,
  unsupported,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { ndClasses } from './nd-class';

export interface MaxPoolOptions {
  kernelSize?: number | number[];
  stride?: number | number[] | null;
  padding?: number | number[];
  dilation?: number | number[];
  returnIndices?: boolean;
  ceilMode?: boolean;
}

const PARAMS = ['kernelSize', 'stride', 'padding', 'dilation', 'returnIndices', 'ceilMode'];

/** PyTorch prints pool sizes as given: `kernel_size=2` or `kernel_size=(2, 2)`. */
function given(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  return Array.isArray(value) ? pyTuple(value as number[]) : String(value);
}

/** What MaxPool1d and MaxPool2d share: arguments, checks, forward and repr. */
export abstract class MaxPoolNd extends Module {
  declare readonly kernelSize: number[];
  declare readonly stride: number[];
  declare readonly padding: number[];
  declare readonly ceilMode: boolean;
  declare private readonly shown: string;

  constructor(name: string, dims: number, args: unknown[]) {
    super();
    const a = bind({ name, params: PARAMS }, args);
    unsupported(a, name, { returnIndices: false });
    const ceilMode = boolArg(a.ceilMode, `${name}: ceilMode`, false);
    const kernelSize = tupleArg(a.kernelSize, dims, `${name}: kernelSize`);
    const dilation = tupleArg(
      a.dilation,
      dims,
      `${name}: dilation`,
      new Array<number>(dims).fill(1),
    );
    if (dilation.some((d) => d !== 1))
      throw new Error(`${name}: dilation other than 1 is not supported yet`);
    const stride = tupleArg(a.stride, dims, `${name}: stride`, kernelSize);
    const padding = tupleArg(a.padding, dims, `${name}: padding`, new Array<number>(dims).fill(0));
    const shown =
      `kernel_size=${given(a.kernelSize, '')}, stride=${given(a.stride, given(a.kernelSize, ''))}, ` +
      `padding=${given(a.padding, '0')}, dilation=${given(a.dilation, '1')}, ` +
      `ceil_mode=${ceilMode ? 'True' : 'False'}`;
    Object.defineProperties(this, {
      kernelSize: { value: kernelSize, enumerable: false },
      stride: { value: stride, enumerable: false },
      padding: { value: padding, enumerable: false },
      ceilMode: { value: ceilMode, enumerable: false },
      shown: { value: shown, enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    const dims = this.kernelSize.length;
    const name = `MaxPool${dims}d`;
    const x = requireTensor(input, name);
    if (dims === 1) {
      if (x.ndim !== 2 && x.ndim !== 3)
        throw shapeError(`${name}(${this.extraRepr()})`, '[N, C, L] or [C, L]', x);
      return maxPool1d(x, this.kernelSize[0], {
        stride: this.stride[0],
        padding: this.padding[0],
        ceilMode: this.ceilMode,
      });
    }
    if (x.ndim !== 3 && x.ndim !== 4)
      throw shapeError(`${name}(${this.extraRepr()})`, '[N, C, H, W] or [C, H, W]', x);
    return maxPool2d(x, this.kernelSize as Pair, {
      stride: this.stride as Pair,
      padding: this.padding as Pair,
      ceilMode: this.ceilMode,
    });
  }

  override extraRepr(): string {
    return this.shown;
  }
}

/** PyTorch's positional way to call MaxPool1d and MaxPool2d (options may come last). */
type MaxPoolPositional = [
  kernelSize: number | number[],
  stride?: number | number[] | null | MaxPoolOptions,
  ...rest: unknown[],
];

export const [MaxPool1d, MaxPool2d] = ndClasses<MaxPoolNd, MaxPoolOptions, MaxPoolPositional>(
  MaxPoolNd,
  'MaxPool',
);
export type MaxPool1d = MaxPoolNd;
export type MaxPool2d = MaxPoolNd;

export class AdaptiveMaxPool2d extends Module {
  declare readonly outputSize: (number | null)[];
  declare private readonly shown: string;

  constructor(
    outputSize:
      | number
      | (number | null)[]
      | { outputSize: number | (number | null)[]; returnIndices?: boolean },
  );
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'AdaptiveMaxPool2d', params: ['outputSize', 'returnIndices'] }, args);
    unsupported(a, 'AdaptiveMaxPool2d', { returnIndices: false });
    const raw = a.outputSize;
    let size: (number | null)[];
    if (typeof raw === 'number') size = [raw, raw];
    else if (
      Array.isArray(raw) &&
      raw.length === 2 &&
      raw.every((v) => v === null || v === undefined || Number.isInteger(v))
    ) {
      // Python's None arrives as undefined.
      size = raw.map((v) => (v === undefined ? null : v) as number | null);
    } else
      throw new TypeError(
        'AdaptiveMaxPool2d: outputSize must be an int or a pair of ints (or null to keep a size)',
      );
    const shown = Array.isArray(raw)
      ? `(${raw.map((v) => (v === null || v === undefined ? 'None' : String(v))).join(', ')})`
      : String(raw);
    Object.defineProperties(this, {
      outputSize: { value: size, enumerable: false },
      shown: { value: `output_size=${shown}`, enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'AdaptiveMaxPool2d');
    if (x.ndim !== 3 && x.ndim !== 4)
      throw shapeError(`AdaptiveMaxPool2d(${this.shown})`, '[N, C, H, W] or [C, H, W]', x);
    return adaptiveMaxPool2d(x, this.outputSize.map((v) => (v === null ? -1 : v)) as Pair);
  }

  override extraRepr(): string {
    return this.shown;
  }
}

/** nn.AdaptiveMaxPool1d(output_size): x [N, C, L] (or [C, L]) → [N, C, output_size]. */
export class AdaptiveMaxPool1d extends Module {
  declare readonly outputSize: number;

  constructor(outputSize: number | { outputSize: number; returnIndices?: boolean });
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'AdaptiveMaxPool1d', params: ['outputSize', 'returnIndices'] }, args);
    unsupported(a, 'AdaptiveMaxPool1d', { returnIndices: false });
    const raw =
      Array.isArray(a.outputSize) && a.outputSize.length === 1 ? a.outputSize[0] : a.outputSize;
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1)
      throw new TypeError('AdaptiveMaxPool1d: outputSize must be a positive int');
    Object.defineProperty(this, 'outputSize', { value: raw, enumerable: false });
  }

  override forward(input: Tensor): Tensor {
    return adaptiveMaxPool1d(requireTensor(input, 'AdaptiveMaxPool1d'), this.outputSize);
  }

  override extraRepr(): string {
    return `output_size=${this.outputSize}`;
  }
}

libraryForward(MaxPool2d, MaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool1d);
