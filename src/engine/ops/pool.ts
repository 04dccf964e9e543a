/**
 * Max pooling: a kernel produces the maxima and the position of each, and the backward routes the
 * gradient to those positions. maxPool1d is maxPool2d over a height of 1; adaptive pooling uses
 * the same kernel with windows derived from the output size.
 */
import { withGrad } from '../autograd';
import type { Pool2dGeometry } from '../backend';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { convGeometry, type Pair } from './conv';

export type { Pair };
import { poolOutputSize } from './pool-avg';
import { pad } from './resample';
import { squeeze, unsqueeze } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped } from './support';

function pool(x: Tensor, g: Pool2dGeometry, name: string): Tensor {
  const device = inputsDevice(name, x);
  const shape = [g.batch, g.channels, g.outHeight, g.outWidth];
  const out = emptyTensor(device, 'float32', shape);
  const indices = emptyTensor(device, 'int32', shape);
  if (out.numel() > 0)
    device.backend.maxPool2d(kernelView(x), g, kernelView(out), kernelView(indices));
  const result = withGrad('MaxPool2DWithIndicesBackward0', [x], out, (save) => {
    const idx = save(indices);
    return (grad) => [maxPoolBackward(grad, idx, g)];
  });
  indices.dispose();
  return result;
}

function maxPoolBackward(grad: Tensor, indices: Tensor, g: Pool2dGeometry): Tensor {
  const device = inputsDevice('maxPool2d backward', grad, indices);
  const out = emptyTensor(device, 'float32', [g.batch, g.channels, g.inHeight, g.inWidth]);
  if (out.numel() > 0)
    device.backend.maxPool2dBackward(kernelView(grad), kernelView(indices), g, kernelView(out));
  return out;
}

function batched(x: Tensor, name: string, run: (x4: Tensor) => Tensor): Tensor {
  inputsDevice(name, x);
  requireFloat(name, x);
  if (x.ndim === 3) return scoped(() => squeeze(run(unsqueeze(x, 0)), 0));
  if (x.ndim !== 4)
    throw new ShapeError(
      `${name}: expected a 3-D or 4-D input [N, C, H, W], got ${formatShape(x.shape)}`,
    );
  return run(x);
}

/** Windows of `kernel` at `stride` over x [N, C, H, W] padded by `padding` on each side. */
export function windowPoolGeometry(
  shape: readonly number[],
  kernel: Pair,
  stride: Pair,
  padding: Pair,
): Pool2dGeometry {
  // A convolution's windows at dilation 1, taken over each channel.
  const {
    inChannels,
    dilationH: _dilationH,
    dilationW: _dilationW,
    ...windows
  } = convGeometry(shape, kernel, stride, padding);
  return { ...windows, channels: inChannels, adaptive: false };
}

/** Adaptive windows over x [N, C, H, W]: as many as the output has (no kernel, stride or padding). */
export function adaptivePoolGeometry(
  [batch, channels, inHeight, inWidth]: readonly number[],
  [outHeight, outWidth]: Pair,
): Pool2dGeometry {
  return {
    batch,
    channels,
    inHeight,
    inWidth,
    outHeight,
    outWidth,
    kernelHeight: 0,
    kernelWidth: 0,
    strideH: 1,
    strideW: 1,
    padH: 0,
    padW: 0,
    adaptive: true,
  };
}

export interface MaxPool2dOptions {
  stride?: Pair;
  padding?: Pair;
  /** Sizes rounded up: a last, partial window where it starts inside the input or its left padding. */
  ceilMode?: boolean;
}

export function maxPool2d(x: Tensor, kernelSize: Pair, options: MaxPool2dOptions = {}): Tensor {
  return batched(x, 'maxPool2d', (x4) => {
    const [kh, kw] = kernelSize;
    const [sh, sw] = options.stride ?? kernelSize;
    const [ph, pw] = options.padding ?? [0, 0];
    if (ph > kh / 2 || pw > kw / 2) {
      throw new ShapeError(
        `maxPool2d: pad should be at most half of kernel size, but got pad=[${ph}, ${pw}] and kernel_size=[${kh}, ${kw}]`,
      );
    }
    const g = windowPoolGeometry(x4.shape, [kh, kw], [sh, sw], [ph, pw]);
    if (g.outHeight < 1 || g.outWidth < 1) {
      throw new ShapeError(
        `maxPool2d: input ${formatShape(x.shape)} is too small for kernel ${kh}x${kw}`,
      );
    }
    if (options.ceilMode) {
      // The partial last windows read -infinity past the input's bottom and right (the kernels
      // then see whole windows); the pad's gradient drops what would reach those positions.
      const [, , height, width] = x4.shape;
      const outH = poolOutputSize(height, kh, sh, ph, true);
      const outW = poolOutputSize(width, kw, sw, pw, true);
      const extraH = Math.max((outH - 1) * sh + kh - (height + 2 * ph), 0);
      const extraW = Math.max((outW - 1) * sw + kw - (width + 2 * pw), 0);
      if (extraH > 0 || extraW > 0) {
        return scoped(() => {
          const padded = pad(x4, [0, extraW, 0, extraH], 'constant', -Infinity);
          return pool(
            padded,
            windowPoolGeometry(padded.shape, [kh, kw], [sh, sw], [ph, pw]),
            'maxPool2d',
          );
        });
      }
    }
    return pool(x4, g, 'maxPool2d');
  });
}

export function adaptiveMaxPool2d(x: Tensor, outputSize: Pair): Tensor {
  return batched(x, 'adaptiveMaxPool2d', (x4) => {
    const [outHeight, outWidth] = outputSize.map((s, i) =>
      s === null || s === -1 ? x4.shape[2 + i] : s,
    );
    if (outHeight < 1 || outWidth < 1)
      throw new ShapeError('adaptiveMaxPool2d: output size must be positive');
    return pool(x4, adaptivePoolGeometry(x4.shape, [outHeight, outWidth]), 'adaptiveMaxPool2d');
  });
}

export interface MaxPool1dOptions {
  stride?: number;
  padding?: number;
  ceilMode?: boolean;
}

/** x [N, C, L] (or [C, L]) → [N, C, oL]. */
export function maxPool1d(x: Tensor, kernelSize: number, options: MaxPool1dOptions = {}): Tensor {
  if (x.ndim !== 3 && x.ndim !== 2)
    throw new ShapeError(
      `maxPool1d: expected a 2-D or 3-D input [N, C, L], got ${formatShape(x.shape)}`,
    );
  return scoped(() =>
    squeeze(
      maxPool2d(unsqueeze(x, -2), [1, kernelSize], {
        stride: [1, options.stride ?? kernelSize],
        padding: [0, options.padding ?? 0],
        ceilMode: options.ceilMode,
      }),
      -2,
    ),
  );
}

/** x [N, C, L] (or [C, L]) → [N, C, oL]: adaptive max pooling over a height of 1. */
export function adaptiveMaxPool1d(x: Tensor, outputSize: number): Tensor {
  if (x.ndim !== 3 && x.ndim !== 2)
    throw new ShapeError(
      `adaptiveMaxPool1d: expected a 2-D or 3-D input [N, C, L], got ${formatShape(x.shape)}`,
    );
  return scoped(() => squeeze(adaptiveMaxPool2d(unsqueeze(x, -2), [1, outputSize]), -2));
}
