/** nn.AvgPool1d, nn.AvgPool2d, nn.AdaptiveAvgPool1d and nn.AdaptiveAvgPool2d over ops/pool-avg. */
import { adaptiveAvgPool1d, adaptiveAvgPool2d, avgPool1d, avgPool2d } from '../../ops/pool-avg';
import type { Tensor } from '../../tensor';
import { bind, boolArg, pyTuple, requireTensor, tupleArg } from '../layer-args';
import { libraryForward, Module } from '../module';
import { ndClasses } from './nd-class';

export interface AvgPoolModuleOptions {
  kernelSize?: number | number[];
  stride?: number | number[] | null;
  padding?: number | number[];
  ceilMode?: boolean;
  countIncludePad?: boolean;
  divisorOverride?: number | null;
}

/** PyTorch prints AvgPool2d's sizes as given (`2` or `(2, 3)`). */
function given(value: unknown): string {
  return Array.isArray(value) ? pyTuple(value as number[]) : String(value);
}

/** What AvgPool1d and AvgPool2d share: arguments, forward and repr. */
export abstract class AvgPoolNd extends Module {
  declare readonly kernelSize: number[];
  declare readonly stride: number[];
  declare readonly padding: number[];
  declare readonly ceilMode: boolean;
  declare readonly countIncludePad: boolean;
  declare readonly divisorOverride: number | null;
  declare private readonly shown: string;

  constructor(name: string, dims: 1 | 2, args: unknown[]) {
    super();
    const a = bind(
      {
        name,
        params: [
          'kernelSize',
          'stride',
          'padding',
          'ceilMode',
          'countIncludePad',
          'divisorOverride',
        ],
      },
      args,
    );
    const kernelSize = tupleArg(a.kernelSize, dims, `${name}: kernelSize`);
    const stride = tupleArg(a.stride, dims, `${name}: stride`, kernelSize);
    const padding = tupleArg(a.padding, dims, `${name}: padding`, new Array<number>(dims).fill(0));
    const override = a.divisorOverride === undefined ? null : (a.divisorOverride as number | null);
    // AvgPool1d stores its sizes as 1-tuples; AvgPool2d keeps them as given.
    const shown =
      dims === 1
        ? `kernel_size=${pyTuple(kernelSize)}, stride=${pyTuple(stride)}, padding=${pyTuple(padding)}`
        : `kernel_size=${given(a.kernelSize)}, stride=${given(a.stride ?? a.kernelSize)}, ` +
          `padding=${given(a.padding ?? 0)}`;
    Object.defineProperties(this, {
      kernelSize: { value: kernelSize, enumerable: false },
      stride: { value: stride, enumerable: false },
      padding: { value: padding, enumerable: false },
      ceilMode: { value: boolArg(a.ceilMode, `${name}: ceilMode`, false), enumerable: false },
      countIncludePad: {
        value: boolArg(a.countIncludePad, `${name}: countIncludePad`, true),
        enumerable: false,
      },
      divisorOverride: { value: override, enumerable: false },
      shown: { value: shown, enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, this.constructor.name);
    const options = {
      stride: this.stride,
      padding: this.padding,
      ceilMode: this.ceilMode,
      countIncludePad: this.countIncludePad,
      divisorOverride: this.divisorOverride,
    };
    return this.kernelSize.length === 1
      ? avgPool1d(x, this.kernelSize[0], options)
      : avgPool2d(x, this.kernelSize as [number, number], options);
  }

  override extraRepr(): string {
    return this.shown;
  }
}

type AvgPoolPositional = [
  kernelSize: number | number[],
  stride?: number | number[] | null | AvgPoolModuleOptions,
  ...rest: unknown[],
];

export const [AvgPool1d, AvgPool2d] = ndClasses<AvgPoolNd, AvgPoolModuleOptions, AvgPoolPositional>(
  AvgPoolNd,
  'AvgPool',
);
export type AvgPool1d = AvgPoolNd;
export type AvgPool2d = AvgPoolNd;

/** An adaptive output size: an int, or a tuple whose None entries (-1 here) keep the input's. */
function outputSizeArg(raw: unknown, dims: number, name: string): number[] {
  if (typeof raw === 'number' && Number.isInteger(raw)) return new Array<number>(dims).fill(raw);
  if (
    Array.isArray(raw) &&
    raw.length === dims &&
    raw.every((v) => v === null || v === undefined || Number.isInteger(v))
  )
    return raw.map((v) => (v === null || v === undefined ? -1 : (v as number)));
  throw new TypeError(
    `${name}: output_size must be an int or a tuple of ${dims} ints (None keeps a size)`,
  );
}

function shownSize(raw: unknown): string {
  if (!Array.isArray(raw)) return String(raw);
  const items = raw.map((v) => (v === null || v === undefined ? 'None' : String(v)));
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

/** What AdaptiveAvgPool1d and AdaptiveAvgPool2d share. */
export abstract class AdaptiveAvgPoolNd extends Module {
  declare readonly outputSize: number[];
  declare private readonly shown: string;

  constructor(name: string, dims: 1 | 2, args: unknown[]) {
    super();
    const a = bind({ name, params: ['outputSize'] }, args);
    Object.defineProperties(this, {
      outputSize: { value: outputSizeArg(a.outputSize, dims, name), enumerable: false },
      shown: { value: `output_size=${shownSize(a.outputSize)}`, enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, this.constructor.name);
    return this.outputSize.length === 1
      ? adaptiveAvgPool1d(x, this.outputSize[0])
      : adaptiveAvgPool2d(x, this.outputSize as [number, number]);
  }

  override extraRepr(): string {
    return this.shown;
  }
}

export const [AdaptiveAvgPool1d, AdaptiveAvgPool2d] = ndClasses<
  AdaptiveAvgPoolNd,
  { outputSize: number | (number | null)[] },
  [outputSize: number | (number | null)[]]
>(AdaptiveAvgPoolNd, 'AdaptiveAvgPool');
export type AdaptiveAvgPool1d = AdaptiveAvgPoolNd;
export type AdaptiveAvgPool2d = AdaptiveAvgPoolNd;

libraryForward(AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d);
