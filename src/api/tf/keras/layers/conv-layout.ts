/**
 * What the channels-last Keras convolutions share on the way to the engine's channels-first ones:
 * the permutes in and out, TF's padding (asymmetric 'same', left-only 'causal') made explicit
 * where the engine's symmetric padding cannot say it, and the 1-D / 2-D engine call.
 */
import { ops, type Tensor } from '../../../../engine';
import { checkWindowFits, padAxis, samePads, type PaddingMode } from './padding';

export type ConvPadding = PaddingMode | 'causal';

/** [N, ...spatial, C] → [N, C, ...spatial] (a view). */
export function channelsFirst(x: Tensor, rank: 1 | 2): Tensor {
  return ops.permute(x, rank === 1 ? [0, 2, 1] : [0, 3, 1, 2]);
}

/** [N, C, ...spatial] → [N, ...spatial, C] (a view). */
export function channelsLast(y: Tensor, rank: 1 | 2): Tensor {
  return ops.permute(y, rank === 1 ? [0, 2, 1] : [0, 2, 3, 1]);
}

export interface Window {
  kernelSize: readonly number[];
  strides: readonly number[];
  dilationRate: readonly number[];
  padding: ConvPadding;
}

/**
 * xc [N, C, ...spatial] padded for TF's window arithmetic: asymmetric pads are added to the
 * data, and the symmetric remainder is returned for the engine to apply (it pads for free).
 */
export function padForWindow(
  layer: string,
  xc: Tensor,
  w: Window,
): { padded: Tensor; symmetric: number[] } {
  const rank = xc.ndim - 2;
  let padded = xc;
  const symmetric: number[] = [];
  for (let i = 0; i < rank; i++) {
    const n = xc.shape[2 + i];
    const [k, s, d] = [w.kernelSize[i], w.strides[i], w.dilationRate[i]];
    let pads: [number, number];
    if (w.padding === 'causal') pads = [d * (k - 1), 0];
    else {
      checkWindowFits(layer, n, k, d, w.padding);
      pads = samePads(n, k, s, d, w.padding);
    }
    const [before, after] = pads;
    if (before === after) symmetric.push(before);
    else {
      symmetric.push(0);
      padded = padAxis(padded, 2 + i, before, after, 0);
    }
  }
  return { padded, symmetric };
}

/**
 * The engine's convolution of xc [N, C, ...spatial] with an engine-layout weight
 * [O, C/groups, ...k], channels-first out.
 */
export function convolveChannelsFirst(
  xc: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  w: Window,
  symmetric: readonly number[],
  groups: number,
): Tensor {
  if (xc.ndim === 3) {
    return ops.conv1d(xc, weight, bias, {
      stride: w.strides[0],
      dilation: w.dilationRate[0],
      padding: symmetric[0],
      groups,
    });
  }
  return ops.conv2d(xc, weight, bias, {
    stride: [w.strides[0], w.strides[1]],
    dilation: [w.dilationRate[0], w.dilationRate[1]],
    padding: [symmetric[0], symmetric[1]],
    groups,
  });
}

/** x as float32 (Keras casts integer inputs to the layer's dtype). */
export function asFloat(x: Tensor): Tensor {
  return x.dtype === 'float32' ? x : ops.cast(x, 'float32');
}
