/**
 * The constructor arguments the Keras convolutions (Conv, ConvTranspose, Depthwise/Separable)
 * and Dense share, parsed once with Keras's checks and messages: `filters`, the window
 * (kernelSize, strides, dilationRate, padding), `dataFormat`, and the activation / bias /
 * initializer tail. Each layer calls these in its own order, so which error comes first when
 * several arguments are bad stays as it was.
 */
import { ops, type Tensor } from '../../../../engine';
import { asBool, asInt, optional, type BoundArgs } from '../../../args';
import { ValueError } from '../../../tf-config';
import { getActivation, type Activation } from '../activations';
import { getInitializer, type InitializerFn } from '../initializers';
import { formatShapeSpec, type ShapeSpec } from './layer';
import { paddingArg, windowArg, type PaddingMode } from './padding';

/** `filters`: a strictly positive integer, with Keras's message. */
export function filtersArg(value: unknown, className: string): number {
  const filters = asInt(value, `${className}: filters`);
  if (filters <= 0)
    throw new ValueError(
      `Invalid value for argument \`filters\`. Expected a strictly positive value. Received filters=${filters}.`,
    );
  return filters;
}

export interface ConvWindowArgs {
  kernelSize: number[];
  strides: number[];
  dilationRate: number[];
}

/** The required `kernelSize` and the optional `strides` / `dilationRate` (default 1 per axis). */
export function convWindowArgs(a: BoundArgs, rank: 1 | 2, className: string): ConvWindowArgs {
  if (a.kernelSize === undefined)
    throw new TypeError(`${className}() missing required argument 'kernelSize'`);
  const ones = () => new Array<number>(rank).fill(1);
  return {
    kernelSize: windowArg(a.kernelSize, rank, `${className}: kernelSize`) ?? ones(),
    strides: windowArg(a.strides, rank, `${className}: strides`) ?? ones(),
    dilationRate: windowArg(a.dilationRate, rank, `${className}: dilationRate`) ?? ones(),
  };
}

/** Only channels-last layouts are implemented (the engine's permutes are built for them). */
export function checkChannelsLast(dataFormat: unknown, className: string): void {
  if (dataFormat !== undefined && dataFormat !== null && dataFormat !== 'channels_last')
    throw new TypeError(`${className}: only dataFormat 'channels_last' is supported`);
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

/** Python's tuple repr of a window, as Keras's messages print it. */
export function pyTuple(v: readonly number[]): string {
  return `(${v.join(', ')}${v.length === 1 ? ',' : ''})`;
}

/** Keras refuses strides and dilation both above 1 (TensorFlow's kernels do not combine them). */
export function checkStridesDilation(
  kernelSize: readonly number[],
  strides: readonly number[],
  dilationRate: readonly number[],
): void {
  if (kernelSize.some((k) => k <= 0))
    throw new ValueError(
      `The argument \`kernel_size\` cannot contain 0. Received kernel_size=${pyTuple(kernelSize)}.`,
    );
  if (strides.some((k) => k <= 0))
    throw new ValueError(
      `The argument \`strides\` cannot contains 0. Received strides=${pyTuple(strides)}`,
    );
  if (Math.max(...strides) > 1 && Math.max(...dilationRate) > 1)
    throw new ValueError(
      '`strides > 1` not supported in conjunction with `dilation_rate > 1`. ' +
        `Received: strides=${pyTuple(strides)} and dilation_rate=${pyTuple(dilationRate)}`,
    );
}

export interface ActivationBiasArgs {
  activation: Activation;
  useBias: boolean;
  kernelInitializer: InitializerFn;
  biasInitializer: InitializerFn;
}

/**
 * `activation`, `useBias` (default true) and the kernel / bias initializers (glorot_uniform /
 * zeros). `kernelKey` names the kernel's initializer argument (`depthwiseInitializer` for the
 * depthwise layers).
 */
export function activationBiasArgs(
  a: BoundArgs,
  className: string,
  kernelKey = 'kernelInitializer',
): ActivationBiasArgs {
  return {
    activation: getActivation(a.activation, className),
    useBias: optional(a.useBias, asBool, `${className}: useBias`, true),
    kernelInitializer: getInitializer(
      a[kernelKey] ?? 'glorot_uniform',
      `${className}: ${kernelKey}`,
    ),
    biasInitializer: getInitializer(a.biasInitializer ?? 'zeros', `${className}: biasInitializer`),
  };
}

/**
 * The input's channels, checking the rank as Keras's InputSpec does (ConvTranspose and the
 * depthwise layers; Conv keeps its older plain Error).
 */
export function convInputChannels(layer: string, rank: 1 | 2, inputShape: ShapeSpec): number {
  const channels = inputShape[inputShape.length - 1];
  if (inputShape.length !== rank + 2 || channels === null) {
    throw new ValueError(
      `Input 0 of layer "${layer}" is incompatible with the layer: expected min_ndim=${rank + 2}, ` +
        `found ndim=${inputShape.length}. Full shape received: ${formatShapeSpec(inputShape)}`,
    );
  }
  return channels;
}

/**
 * A Keras kernel [k, C, F] / [kh, kw, C, F] as the engine's [F, C, k] / [F, C, kh, kw] (a view);
 * the transposed convolution's [...k, F, C] becomes the engine's [C, F, ...k] the same way.
 */
export function kernelToEngine(kernel: Tensor, rank: 1 | 2): Tensor {
  return ops.permute(kernel, rank === 1 ? [2, 1, 0] : [3, 2, 0, 1]);
}
