/** A convolution geometry for tests, its output size derived as conv2d derives it. Test-only. */
import type { Conv2dGeometry } from '../backend';

export function convGeometry(
  [batch, inChannels, inHeight, inWidth]: number[],
  [kernelHeight, kernelWidth]: number[],
  [strideH, strideW]: number[] = [1, 1],
  [padH, padW]: number[] = [0, 0],
  [dilationH, dilationW]: number[] = [1, 1],
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
