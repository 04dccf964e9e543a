/**
 * Convolutions: argument checks and geometry here, the product and its gradients in conv-gemm.ts
 * over the backend's convolution kernels. conv1d is conv2d over a height of 1.
 */
import type { Conv2dGeometry } from '../backend';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { convolve } from './conv-gemm';
import { convolveGrouped } from './conv-grouped';
import { pad as padImage } from './resample';
import { squeeze, unsqueeze } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

export type Pair = [number, number];

export interface Conv2dOptions {
  stride?: Pair;
  /** Symmetric zero padding per side, or 'valid' (none) / 'same' (output size = input size). */
  padding?: Pair | 'same' | 'valid';
  dilation?: Pair;
  /** Channels split into this many groups, each convolved with its own filters (depthwise: C). */
  groups?: number;
}

/** The padding 'same' puts before (left) and after (right): PyTorch's, the extra one after. */
export function samePadding(
  kernel: number,
  dilation: number,
  stride: number,
  op: string,
): [left: number, right: number] {
  if (stride !== 1)
    throw new ShapeError(`${op}: padding='same' is not supported for strided convolutions`);
  const total = dilation * (kernel - 1);
  return [Math.floor(total / 2), total - Math.floor(total / 2)];
}

/**
 * The windows of a convolution of x [N, C, H, W] with a kH x kW kernel at a stride, padding and
 * dilation, and the output's size (an output size below 1 means the kernel does not fit).
 */
export function convGeometry(
  [batch, inChannels, inHeight, inWidth]: readonly number[],
  [kernelHeight, kernelWidth]: readonly number[],
  [strideH, strideW]: readonly number[] = [1, 1],
  [padH, padW]: readonly number[] = [0, 0],
  [dilationH, dilationW]: readonly number[] = [1, 1],
): Conv2dGeometry {
  const out = (size: number, k: number, s: number, p: number, d: number) =>
    Math.floor((size + 2 * p - d * (k - 1) - 1) / s) + 1;
  return {
    batch,
    inChannels,
    inHeight,
    inWidth,
    kernelHeight,
    kernelWidth,
    strideH,
    strideW,
    padH,
    padW,
    dilationH,
    dilationW,
    outHeight: out(inHeight, kernelHeight, strideH, padH, dilationH),
    outWidth: out(inWidth, kernelWidth, strideW, padW, dilationW),
  };
}

/** x [N, C, H, W] (or [C, H, W]), weight [O, C, kH, kW], bias [O] → [N, O, oH, oW]. */
export function conv2d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  options: Conv2dOptions = {},
): Tensor {
  inputsDevice('conv2d', x, weight, bias);
  requireFloat('conv2d', x);
  requireFloat('conv2d', weight, 'weight');
  if (x.ndim !== 4 && x.ndim !== 3) {
    throw new ShapeError(
      `conv2d: expected a 3-D or 4-D input [N, C, H, W], got ${formatShape(x.shape)}`,
    );
  }
  if (x.ndim === 3) return scoped(() => squeeze(conv2d(unsqueeze(x, 0), weight, bias, options), 0));
  if (weight.ndim !== 4)
    throw new ShapeError(
      `conv2d: weight must be 4-D [O, C, kH, kW], got ${formatShape(weight.shape)}`,
    );
  const [batch, channels, height, width] = x.shape;
  const [outChannels, weightChannels, kh, kw] = weight.shape;
  const groups = options.groups ?? 1;
  if (!Number.isInteger(groups) || groups < 1)
    throw new ShapeError(`conv2d: groups must be a positive integer, got ${groups}`);
  if (outChannels % groups !== 0)
    throw new ShapeError(
      `conv2d: weight ${formatShape(weight.shape)} has ${outChannels} output channels, ` +
        `not divisible by groups=${groups}`,
    );
  if (weightChannels * groups !== channels) {
    throw new ShapeError(
      `conv2d: weight ${formatShape(weight.shape)}${groups > 1 ? ` with groups=${groups}` : ''} ` +
        `expects input with ${weightChannels * groups} channels, ` +
        `but got input ${formatShape(x.shape)} with ${channels} channels`,
    );
  }
  if (bias && (bias.ndim !== 1 || bias.shape[0] !== outChannels)) {
    throw new ShapeError(
      `conv2d: bias must have shape [${outChannels}], got ${formatShape(bias.shape)}`,
    );
  }
  const [sh, sw] = options.stride ?? [1, 1];
  const [dh, dw] = options.dilation ?? [1, 1];
  const pad = options.padding ?? [0, 0];
  if (pad === 'same') {
    const [top, bottom] = samePadding(kh, dh, sh, 'conv2d');
    const [left, right] = samePadding(kw, dw, sw, 'conv2d');
    // An even effective kernel pads one more after than before: that one as a zero-padded copy.
    if (bottom !== top || right !== left) {
      return scoped(() =>
        conv2d(padImage(x, [0, right - left, 0, bottom - top]), weight, bias, {
          ...options,
          padding: [top, left],
        }),
      );
    }
  }
  const [ph, pw]: Pair =
    pad === 'valid'
      ? [0, 0]
      : pad === 'same'
        ? [samePadding(kh, dh, sh, 'conv2d')[0], samePadding(kw, dw, sw, 'conv2d')[0]]
        : pad;
  if (
    [sh, sw, dh, dw].some((v) => !Number.isInteger(v) || v < 1) ||
    [ph, pw].some((v) => !Number.isInteger(v) || v < 0)
  ) {
    throw new ShapeError(
      'conv2d: stride and dilation must be integers >= 1 and padding integers >= 0',
    );
  }
  const geometry = convGeometry(
    [batch, channels, height, width],
    [kh, kw],
    [sh, sw],
    [ph, pw],
    [dh, dw],
  );
  if (geometry.outHeight < 1 || geometry.outWidth < 1) {
    throw new ShapeError(
      `conv2d: input ${formatShape(x.shape)} (padded ${height + 2 * ph}x${width + 2 * pw}) is smaller ` +
        `than the kernel ${kh}x${kw} (dilation ${dh}x${dw})`,
    );
  }
  // The product, bias and NCHW layout are one backend kernel (conv-gemm.ts); groups are a
  // batched product over the window columns (conv-grouped.ts).
  if (groups > 1) return scoped(() => convolveGrouped(x, weight, bias, geometry, groups));
  return scoped(() => convolve(x, weight, bias, geometry));
}

export interface Conv1dOptions {
  stride?: number;
  padding?: number | 'same' | 'valid';
  dilation?: number;
  groups?: number;
}

/** x [N, C, L] (or [C, L]), weight [O, C, k], bias [O] → [N, O, oL]. */
export function conv1d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  options: Conv1dOptions = {},
): Tensor {
  if (x.ndim !== 3 && x.ndim !== 2) {
    throw new ShapeError(
      `conv1d: expected a 2-D or 3-D input [N, C, L], got ${formatShape(x.shape)}`,
    );
  }
  if (weight.ndim !== 3)
    throw new ShapeError(`conv1d: weight must be 3-D [O, C, k], got ${formatShape(weight.shape)}`);
  if (x.ndim === 2) return scoped(() => squeeze(conv1d(unsqueeze(x, 0), weight, bias, options), 0));
  const padding = options.padding ?? 0;
  return scoped(() =>
    squeeze(
      conv2d(unsqueeze(x, 2), unsqueeze(weight, 2), bias, {
        stride: [1, options.stride ?? 1],
        dilation: [1, options.dilation ?? 1],
        groups: options.groups,
        padding: typeof padding === 'number' ? [0, padding] : padding === 'valid' ? [0, 0] : 'same',
      }),
      2,
    ),
  );
}
