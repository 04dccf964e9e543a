/**
 * nn.Upsample (and UpsamplingNearest2d, UpsamplingBilinear2d) over ops/resample's interpolate, and
 * the padding modules (ZeroPad2d, ConstantPad1d/2d, ReflectionPad1d/2d, ReplicationPad1d/2d) over
 * its pad, with PyTorch's arguments and reprs.
 */
import { interpolate, pad, type InterpolateMode, type PadMode } from '../../ops/resample';
import type { Tensor } from '../../tensor';
import { bind, pyTuple, requireTensor, tupleArg } from '../layer-args';
import { libraryForward, Module } from '../module';

/** Python's repr of a float (PyTorch stores scale factors as floats): 2 → 2.0. */
function pyFloat(v: number): string {
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

export interface UpsampleOptions {
  size?: number | number[] | null;
  scaleFactor?: number | number[] | null;
  mode?: InterpolateMode;
  alignCorners?: boolean | null;
  recomputeScaleFactor?: boolean | null;
}

const UPSAMPLE = ['size', 'scaleFactor', 'mode', 'alignCorners', 'recomputeScaleFactor'];

export class Upsample extends Module {
  declare readonly size: number | number[] | null;
  declare readonly scaleFactor: number | number[] | null;
  declare readonly mode: InterpolateMode;
  declare readonly alignCorners: boolean | null;
  declare readonly recomputeScaleFactor: boolean | null;

  constructor(options?: UpsampleOptions);
  constructor(
    size?: number | number[] | null,
    scaleFactor?: number | number[] | null,
    mode?: InterpolateMode,
    alignCorners?: boolean | null,
    options?: UpsampleOptions,
  );
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: this.constructor.name, params: UPSAMPLE }, args);
    this.init(a, (a.mode as InterpolateMode | undefined) ?? 'nearest', a.alignCorners ?? null);
  }

  protected init(a: Record<string, unknown>, mode: InterpolateMode, alignCorners: unknown): void {
    // Configurable: the Upsampling* subclasses set them again after Upsample's defaults.
    const field = (v: unknown) => ({
      value: v === undefined ? null : v,
      enumerable: false,
      configurable: true,
    });
    Object.defineProperties(this, {
      size: field(a.size),
      scaleFactor: field(a.scaleFactor),
      mode: field(mode),
      alignCorners: field(alignCorners),
      recomputeScaleFactor: field(a.recomputeScaleFactor),
    });
  }

  override forward(input: Tensor): Tensor {
    return interpolate(requireTensor(input, this.constructor.name), {
      size: this.size,
      scaleFactor: this.scaleFactor,
      mode: this.mode,
      alignCorners: this.alignCorners,
      recomputeScaleFactor: this.recomputeScaleFactor,
    });
  }

  override extraRepr(): string {
    const s = this.scaleFactor;
    const info =
      s !== null
        ? `scale_factor=${Array.isArray(s) ? `(${s.map(pyFloat).join(', ')})` : pyFloat(s)}`
        : `size=${Array.isArray(this.size) ? pyTuple(this.size) : String(this.size)}`;
    return `${info}, mode=${this.mode}`;
  }
}

/** nn.UpsamplingNearest2d(size=None, scale_factor=None): Upsample in nearest mode. */
export class UpsamplingNearest2d extends Upsample {
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'UpsamplingNearest2d', params: ['size', 'scaleFactor'] }, args);
    this.init(a, 'nearest', null);
  }
}

/** nn.UpsamplingBilinear2d(size=None, scale_factor=None): bilinear with align_corners=True. */
export class UpsamplingBilinear2d extends Upsample {
  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'UpsamplingBilinear2d', params: ['size', 'scaleFactor'] }, args);
    this.init(a, 'bilinear', true);
  }
}

/** What the padding modules share: a padding tuple of 2·dims ints (an int pads every side). */
export abstract class PadNd extends Module {
  declare readonly padding: number[];
  declare readonly value: number;

  constructor(name: string, dims: number, args: unknown[], withValue: boolean) {
    super();
    const a = bind({ name, params: withValue ? ['padding', 'value'] : ['padding'] }, args);
    const padding = tupleArg(a.padding, 2 * dims, `${name}: padding`);
    if (withValue && typeof a.value !== 'number')
      throw new TypeError(`${name}: value must be a number`);
    Object.defineProperties(this, {
      padding: { value: padding, enumerable: false },
      value: { value: withValue ? a.value : 0, enumerable: false },
    });
  }

  protected abstract readonly padMode: PadMode;

  override forward(input: Tensor): Tensor {
    return pad(requireTensor(input, this.constructor.name), this.padding, this.padMode, this.value);
  }

  override extraRepr(): string {
    return pyTuple(this.padding);
  }
}

function padClass(name: string, dims: number, padMode: PadMode, withValue: boolean) {
  const byName = {
    [name]: class extends PadNd {
      protected readonly padMode = padMode;
      constructor(...args: unknown[]) {
        super(name, dims, args, withValue);
      }
      override extraRepr(): string {
        return withValue
          ? `padding=${pyTuple(this.padding)}, value=${String(this.value)}`
          : pyTuple(this.padding);
      }
    },
  };
  return byName[name] as new (...args: unknown[]) => PadNd;
}

export const ZeroPad2d = padClass('ZeroPad2d', 2, 'constant', false);
export const ConstantPad1d = padClass('ConstantPad1d', 1, 'constant', true);
export const ConstantPad2d = padClass('ConstantPad2d', 2, 'constant', true);
export const ReflectionPad1d = padClass('ReflectionPad1d', 1, 'reflect', false);
export const ReflectionPad2d = padClass('ReflectionPad2d', 2, 'reflect', false);
export const ReplicationPad1d = padClass('ReplicationPad1d', 1, 'replicate', false);
export const ReplicationPad2d = padClass('ReplicationPad2d', 2, 'replicate', false);

libraryForward(
  Upsample,
  UpsamplingNearest2d,
  UpsamplingBilinear2d,
  ZeroPad2d,
  ConstantPad1d,
  ConstantPad2d,
  ReflectionPad1d,
  ReflectionPad2d,
  ReplicationPad1d,
  ReplicationPad2d,
);
