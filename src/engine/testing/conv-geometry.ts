/** Convolution geometries for tests and a walk over their windows' taps. Test-only. */
import type { Conv2dGeometry } from '../backend';

/** The op's own geometry (ops/conv.ts), so a test's windows are those conv2d computes. */
export { convGeometry } from '../ops/conv';

/**
 * Calls fn(flat, col, n, c, ih, iw) for every element of the im2col columns [N*oH*oW, C*kH*kW]
 * that reads an in-bounds pixel (flat is its row-major index; the others read the padding, 0).
 */
export function forEachTap(
  g: Conv2dGeometry,
  fn: (flat: number, col: number, n: number, c: number, ih: number, iw: number) => void,
): void {
  const cols = g.inChannels * g.kernelHeight * g.kernelWidth;
  for (let n = 0; n < g.batch; n++)
    for (let oh = 0; oh < g.outHeight; oh++)
      for (let ow = 0; ow < g.outWidth; ow++)
        for (let c = 0; c < g.inChannels; c++)
          for (let kh = 0; kh < g.kernelHeight; kh++)
            for (let kw = 0; kw < g.kernelWidth; kw++) {
              const ih = oh * g.strideH - g.padH + kh * g.dilationH;
              const iw = ow * g.strideW - g.padW + kw * g.dilationW;
              if (ih < 0 || iw < 0 || ih >= g.inHeight || iw >= g.inWidth) continue;
              const row = (n * g.outHeight + oh) * g.outWidth + ow;
              const col = (c * g.kernelHeight + kh) * g.kernelWidth + kw;
              fn(row * cols + col, col, n, c, ih, iw);
            }
}
