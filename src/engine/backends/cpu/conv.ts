/** CPU im2col/col2im (convolution as GEMM) and 2-D max pooling with its backward. */
import type { Conv2dGeometry, OutView, Pool2dGeometry, View } from '../../backend';
import { arrayOf } from './buffer';

export function im2colKernel(x: View, g: Conv2dGeometry, out: OutView): void {
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const [sn, sc, sh, sw] = x.strides;
  let oi = out.offset;
  for (let n = 0; n < g.batch; n++) {
    for (let oh = 0; oh < g.outHeight; oh++) {
      for (let ow = 0; ow < g.outWidth; ow++) {
        for (let c = 0; c < g.inChannels; c++) {
          const base = x.offset + n * sn + c * sc;
          for (let kh = 0; kh < g.kernelHeight; kh++) {
            const ih = oh * g.strideH - g.padH + kh * g.dilationH;
            const rowOk = ih >= 0 && ih < g.inHeight;
            for (let kw = 0; kw < g.kernelWidth; kw++) {
              const iw = ow * g.strideW - g.padW + kw * g.dilationW;
              o[oi++] = rowOk && iw >= 0 && iw < g.inWidth ? xa[base + ih * sh + iw * sw] : 0;
            }
          }
        }
      }
    }
  }
}

export function col2imKernel(columns: View, g: Conv2dGeometry, out: OutView): void {
  const ca = arrayOf(columns);
  const o = arrayOf(out);
  const [rs, cs] = columns.strides;
  const { inChannels: C, inHeight: H, inWidth: W } = g;
  o.fill(0, out.offset, out.offset + g.batch * C * H * W);
  let row = 0;
  for (let n = 0; n < g.batch; n++) {
    for (let oh = 0; oh < g.outHeight; oh++) {
      for (let ow = 0; ow < g.outWidth; ow++, row++) {
        let col = 0;
        for (let c = 0; c < C; c++) {
          const base = out.offset + (n * C + c) * H * W;
          for (let kh = 0; kh < g.kernelHeight; kh++) {
            const ih = oh * g.strideH - g.padH + kh * g.dilationH;
            for (let kw = 0; kw < g.kernelWidth; kw++, col++) {
              const iw = ow * g.strideW - g.padW + kw * g.dilationW;
              if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
                o[base + ih * W + iw] += ca[columns.offset + row * rs + col * cs];
              }
            }
          }
        }
      }
    }
  }
}

/** [start, end) of window i along one axis. */
function windowRange(
  i: number,
  inSize: number,
  outSize: number,
  kernel: number,
  stride: number,
  pad: number,
  adaptive: boolean,
): [number, number] {
  if (adaptive)
    return [Math.floor((i * inSize) / outSize), Math.ceil(((i + 1) * inSize) / outSize)];
  const start = i * stride - pad;
  return [Math.max(start, 0), Math.min(start + kernel, inSize)];
}

export function maxPool2dKernel(x: View, g: Pool2dGeometry, out: OutView, indices: OutView): void {
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const idx = arrayOf(indices);
  const [sn, sc, sh, sw] = x.strides;
  let oi = 0;
  for (let n = 0; n < g.batch; n++) {
    for (let c = 0; c < g.channels; c++) {
      const base = x.offset + n * sn + c * sc;
      for (let oh = 0; oh < g.outHeight; oh++) {
        const [h0, h1] = windowRange(
          oh,
          g.inHeight,
          g.outHeight,
          g.kernelHeight,
          g.strideH,
          g.padH,
          g.adaptive,
        );
        for (let ow = 0; ow < g.outWidth; ow++, oi++) {
          const [w0, w1] = windowRange(
            ow,
            g.inWidth,
            g.outWidth,
            g.kernelWidth,
            g.strideW,
            g.padW,
            g.adaptive,
          );
          let best = -Infinity;
          let bestAt = h0 * g.inWidth + w0;
          for (let h = h0; h < h1; h++) {
            for (let w = w0; w < w1; w++) {
              const v = xa[base + h * sh + w * sw];
              if (v > best || v !== v) {
                best = v;
                bestAt = h * g.inWidth + w;
                if (v !== v) break;
              }
            }
          }
          o[out.offset + oi] = best;
          idx[indices.offset + oi] = bestAt;
        }
      }
    }
  }
}

export function maxPool2dBackwardKernel(
  gradOut: View,
  indices: View,
  g: Pool2dGeometry,
  out: OutView,
): void {
  const ga = arrayOf(gradOut);
  const idx = arrayOf(indices);
  const o = arrayOf(out);
  const plane = g.inHeight * g.inWidth;
  o.fill(0, out.offset, out.offset + g.batch * g.channels * plane);
  const [gn, gc, gh, gw] = gradOut.strides;
  const [jn, jc, jh, jw] = indices.strides;
  for (let n = 0; n < g.batch; n++) {
    for (let c = 0; c < g.channels; c++) {
      const base = out.offset + (n * g.channels + c) * plane;
      for (let oh = 0; oh < g.outHeight; oh++) {
        for (let ow = 0; ow < g.outWidth; ow++) {
          const at = idx[indices.offset + n * jn + c * jc + oh * jh + ow * jw];
          o[base + at] += ga[gradOut.offset + n * gn + c * gc + oh * gh + ow * gw];
        }
      }
    }
  }
}
