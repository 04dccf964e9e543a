/**
 * Transposed convolutions (F.conv_transpose1d/2d): argument checks and the output's size here,
 * the product in conv-grouped.ts (the adjoint of a convolution, folded by col2im).
 */
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { convGeometry, type Pair } from './conv';
import { convolveTransposed } from './conv-grouped';
import { squeeze, unsqueeze } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

export interface ConvTranspose2dOptions {
  stride?: Pair;
  padding?: Pair;
  outputPadding?: Pair;
  groups?: number;
  dilation?: Pair;
}

/** x [N, Cin, H, W] (or [Cin, H, W]), weight [Cin, Cout/G, kH, kW], bias [Cout] → [N, Cout, oH, oW]. */
export function convTranspose2d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  options: ConvTranspose2dOptions = {},
): Tensor {
  const name = 'convTranspose2d';
  inputsDevice(name, x, weight, bias);
  requireFloat(name, x);
  requireFloat(name, weight, 'weight');
  if (x.ndim === 3)
    return scoped(() => squeeze(convTranspose2d(unsqueeze(x, 0), weight, bias, options), 0));
  if (x.ndim !== 4)
    throw new ShapeError(
      `${name}: expected a 3-D or 4-D input [N, C, H, W], got ${formatShape(x.shape)}`,
    );
  if (weight.ndim !== 4)
    throw new ShapeError(
      `${name}: weight must be 4-D [Cin, Cout/groups, kH, kW], got ${formatShape(weight.shape)}`,
    );
  const [batch, channels, height, width] = x.shape;
  const [weightIn, outPerGroup, kh, kw] = weight.shape;
  const groups = options.groups ?? 1;
  const [sh, sw] = options.stride ?? [1, 1];
  const [ph, pw] = options.padding ?? [0, 0];
  const [oph, opw] = options.outputPadding ?? [0, 0];
  const [dh, dw] = options.dilation ?? [1, 1];
  if (!Number.isInteger(groups) || groups < 1 || channels % groups !== 0)
    throw new ShapeError(`${name}: groups=${groups} must be a positive divisor of ${channels}`);
  if (weightIn !== channels)
    throw new ShapeError(
      `${name}: weight ${formatShape(weight.shape)} expects input with ${weightIn} channels, ` +
        `but got input ${formatShape(x.shape)} with ${channels} channels`,
    );
  const outChannels = outPerGroup * groups;
  if (bias && (bias.ndim !== 1 || bias.shape[0] !== outChannels))
    throw new ShapeError(
      `${name}: bias must have shape [${outChannels}], got ${formatShape(bias.shape)}`,
    );
  if (
    [sh, sw, dh, dw].some((v) => !Number.isInteger(v) || v < 1) ||
    [ph, pw, oph, opw].some((v) => !Number.isInteger(v) || v < 0)
  )
    throw new ShapeError(
      `${name}: stride and dilation must be integers >= 1, padding and output_padding integers >= 0`,
    );
  if ((oph >= sh && oph >= dh) || (opw >= sw && opw >= dw))
    throw new ShapeError(
      `${name}: output padding must be smaller than either stride or dilation, but got ` +
        `output_padding=(${oph}, ${opw}), stride=(${sh}, ${sw}), dilation=(${dh}, ${dw})`,
    );
  const outH = (height - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1;
  const outW = (width - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1;
  if (outH < 1 || outW < 1)
    throw new ShapeError(
      `${name}: given input ${formatShape(x.shape)}, the calculated output size ` +
        `(${outChannels}x${outH}x${outW}) is too small`,
    );
  // The convolution whose input gradient this is: its input is our output, its output our input
  // (with output padding its own size rule may count more windows; only H x W of them exist).
  const g = {
    ...convGeometry([batch, outChannels, outH, outW], [kh, kw], [sh, sw], [ph, pw], [dh, dw]),
    outHeight: height,
    outWidth: width,
  };
  return scoped(() => convolveTransposed(x, weight, bias, g, groups));
}

export interface ConvTranspose1dOptions {
  stride?: number;
  padding?: number;
  outputPadding?: number;
  groups?: number;
  dilation?: number;
}

/** x [N, Cin, L] (or [Cin, L]), weight [Cin, Cout/G, k], bias [Cout] → [N, Cout, oL]. */
export function convTranspose1d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  options: ConvTranspose1dOptions = {},
): Tensor {
  if (x.ndim !== 3 && x.ndim !== 2)
    throw new ShapeError(
      `convTranspose1d: expected a 2-D or 3-D input [N, C, L], got ${formatShape(x.shape)}`,
    );
  if (weight.ndim !== 3)
    throw new ShapeError(
      `convTranspose1d: weight must be 3-D [Cin, Cout/groups, k], got ${formatShape(weight.shape)}`,
    );
  return scoped(() =>
    squeeze(
      convTranspose2d(unsqueeze(x, -2), unsqueeze(weight, 2), bias, {
        stride: [1, options.stride ?? 1],
        padding: [0, options.padding ?? 0],
        outputPadding: [0, options.outputPadding ?? 0],
        dilation: [1, options.dilation ?? 1],
        groups: options.groups,
      }),
      -2,
    ),
  );
}
