/** CPU im2col/col2im (convolution as GEMM) and 2-D max pooling with its backward. */
import type { Conv2dGeometry, OutView, Pool2dGeometry, TypedArray, View } from '../../backend';
import { arrayOf } from './buffer';

/**
 * Input rows/columns each kernel tap reads, per output position: tap t of output i along an axis
 * reads input i * stride - pad + t * dilation, or nothing (-1) in the padding. Precomputed once
 * per call so the loops below do no bounds arithmetic per element.
 */
function taps(
  outSize: number,
  kernel: number,
  stride: number,
  pad: number,
  dilation: number,
  inSize: number,
): Int32Array {
  const at = new Int32Array(outSize * kernel);
  for (let i = 0; i < outSize; i++) {
    for (let t = 0; t < kernel; t++) {
      const x = i * stride - pad + t * dilation;
      at[i * kernel + t] = x >= 0 && x < inSize ? x : -1;
    }
  }
  return at;
}

/** Whether output i's window lies inside the input on this axis (no padding taps). */
function interior(at: Int32Array, i: number, kernel: number): boolean {
  return at[i * kernel] >= 0 && at[i * kernel + kernel - 1] >= 0;
}

export function im2colKernel(x: View, g: Conv2dGeometry, out: OutView): void {
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const [sn, sc, sh, sw] = x.strides;
  const { kernelHeight: KH, kernelWidth: KW } = g;
  const rowsAt = taps(g.outHeight, KH, g.strideH, g.padH, g.dilationH, g.inHeight);
  const colsAt = taps(g.outWidth, KW, g.strideW, g.padW, g.dilationW, g.inWidth);
  const dw = g.dilationW * sw;
  let oi = out.offset;
  for (let n = 0; n < g.batch; n++) {
    for (let oh = 0; oh < g.outHeight; oh++) {
      const rowsInside = interior(rowsAt, oh, KH);
      for (let ow = 0; ow < g.outWidth; ow++) {
        const iw0 = colsAt[ow * KW];
        if (rowsInside && interior(colsAt, ow, KW)) {
          // The common case: the whole window is inside, each kernel row is KW strided reads.
          for (let c = 0; c < g.inChannels; c++) {
            const base = x.offset + n * sn + c * sc + iw0 * sw;
            for (let kh = 0; kh < KH; kh++) {
              let src = base + rowsAt[oh * KH + kh] * sh;
              for (let kw = 0; kw < KW; kw++, src += dw) o[oi++] = xa[src];
            }
          }
          continue;
        }
        for (let c = 0; c < g.inChannels; c++) {
          const base = x.offset + n * sn + c * sc;
          for (let kh = 0; kh < KH; kh++) {
            const ih = rowsAt[oh * KH + kh];
            if (ih < 0) {
              o.fill(0, oi, oi + KW);
              oi += KW;
              continue;
            }
            const row = base + ih * sh;
            for (let kw = 0; kw < KW; kw++) {
              const iw = colsAt[ow * KW + kw];
              o[oi++] = iw >= 0 ? xa[row + iw * sw] : 0;
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
  const { inChannels: C, inHeight: H, inWidth: W, kernelHeight: KH, kernelWidth: KW } = g;
  o.fill(0, out.offset, out.offset + g.batch * C * H * W);
  const rowsAt = taps(g.outHeight, KH, g.strideH, g.padH, g.dilationH, H);
  const colsAt = taps(g.outWidth, KW, g.strideW, g.padW, g.dilationW, W);
  const dw = g.dilationW;
  let row = 0;
  for (let n = 0; n < g.batch; n++) {
    for (let oh = 0; oh < g.outHeight; oh++) {
      const rowsInside = interior(rowsAt, oh, KH);
      for (let ow = 0; ow < g.outWidth; ow++, row++) {
        let src = columns.offset + row * rs;
        if (rowsInside && interior(colsAt, ow, KW) && cs === 1) {
          const iw0 = colsAt[ow * KW];
          for (let c = 0; c < C; c++) {
            const base = out.offset + (n * C + c) * H * W + iw0;
            for (let kh = 0; kh < KH; kh++) {
              let dst = base + rowsAt[oh * KH + kh] * W;
              for (let kw = 0; kw < KW; kw++, dst += dw) o[dst] += ca[src++];
            }
          }
          continue;
        }
        for (let c = 0; c < C; c++) {
          const base = out.offset + (n * C + c) * H * W;
          for (let kh = 0; kh < KH; kh++) {
            const ih = rowsAt[oh * KH + kh];
            for (let kw = 0; kw < KW; kw++, src += cs) {
              const iw = colsAt[ow * KW + kw];
              if (ih >= 0 && iw >= 0) o[base + ih * W + iw] += ca[src];
            }
          }
        }
      }
    }
  }
}

/** Window bounds along one axis: [start[i], end[i]) for output i (clipped to the input). */
function windows(
  outSize: number,
  inSize: number,
  kernel: number,
  stride: number,
  pad: number,
  adaptive: boolean,
): [Int32Array, Int32Array] {
  const start = new Int32Array(outSize);
  const end = new Int32Array(outSize);
  for (let i = 0; i < outSize; i++) {
    if (adaptive) {
      start[i] = Math.floor((i * inSize) / outSize);
      end[i] = Math.ceil(((i + 1) * inSize) / outSize);
    } else {
      const s = i * stride - pad;
      start[i] = Math.max(s, 0);
      end[i] = Math.min(s + kernel, inSize);
    }
  }
  return [start, end];
}

/**
 * 2×2 windows at stride 2 without padding (the usual pooling): four loads and three compares per
 * window, no inner loops — the compares mispredict on real data, loop overhead no longer adds.
 * A window holding a NaN (its sum is NaN) takes the general path, where NaN wins.
 */
function maxPool2x2(x: View, g: Pool2dGeometry, out: OutView, indices: OutView): void {
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const idx = arrayOf(indices);
  const [sn, sc, sh, sw] = x.strides;
  const W = g.inWidth;
  let oi = 0;
  for (let n = 0; n < g.batch; n++) {
    for (let c = 0; c < g.channels; c++) {
      const base = x.offset + n * sn + c * sc;
      for (let oh = 0; oh < g.outHeight; oh++) {
        for (let ow = 0; ow < g.outWidth; ow++, oi++) {
          const s = base + 2 * oh * sh + 2 * ow * sw;
          const p = 2 * oh * W + 2 * ow;
          const v0 = xa[s];
          const v1 = xa[s + sw];
          const v2 = xa[s + sh];
          const v3 = xa[s + sh + sw];
          const sum = v0 + v1 + v2 + v3;
          if (sum !== sum) {
            windowMax(
              xa,
              base,
              sh,
              sw,
              W,
              2 * oh,
              2 * oh + 2,
              2 * ow,
              2 * ow + 2,
              o,
              out.offset + oi,
              idx,
              indices.offset + oi,
            );
            continue;
          }
          let best = v0;
          let at = p;
          if (v1 > best) {
            best = v1;
            at = p + 1;
          }
          if (v2 > best) {
            best = v2;
            at = p + W;
          }
          if (v3 > best) {
            best = v3;
            at = p + W + 1;
          }
          o[out.offset + oi] = best;
          idx[indices.offset + oi] = at;
        }
      }
    }
  }
}

/**
 * Max of x over rows [h0, h1) × columns [w0, w1) of the plane at `base`: value to o[oAt], flat
 * index (h * W + w) to idx[iAt]. The first maximum wins; a NaN wins and ends the search (PyTorch).
 */
function windowMax(
  xa: TypedArray,
  base: number,
  sh: number,
  sw: number,
  W: number,
  h0: number,
  h1: number,
  w0: number,
  w1: number,
  o: TypedArray,
  oAt: number,
  idx: TypedArray,
  iAt: number,
): void {
  let best = -Infinity;
  let bestAt = h0 * W + w0;
  search: for (let h = h0; h < h1; h++) {
    let src = base + h * sh + w0 * sw;
    for (let w = w0; w < w1; w++, src += sw) {
      const v = xa[src];
      if (v > best || v !== v) {
        best = v;
        bestAt = h * W + w;
        if (v !== v) break search;
      }
    }
  }
  o[oAt] = best;
  idx[iAt] = bestAt;
}

export function maxPool2dKernel(x: View, g: Pool2dGeometry, out: OutView, indices: OutView): void {
  const pairs =
    !g.adaptive &&
    g.kernelHeight === 2 &&
    g.kernelWidth === 2 &&
    g.strideH === 2 &&
    g.strideW === 2 &&
    g.padH === 0 &&
    g.padW === 0;
  if (pairs) {
    maxPool2x2(x, g, out, indices);
    return;
  }
  const xa = arrayOf(x);
  const o = arrayOf(out);
  const idx = arrayOf(indices);
  const [sn, sc, sh, sw] = x.strides;
  const { inHeight: H, inWidth: W, outHeight: OH, outWidth: OW } = g;
  const [h0s, h1s] = windows(OH, H, g.kernelHeight, g.strideH, g.padH, g.adaptive);
  const [w0s, w1s] = windows(OW, W, g.kernelWidth, g.strideW, g.padW, g.adaptive);
  let oi = 0;
  for (let n = 0; n < g.batch; n++) {
    for (let c = 0; c < g.channels; c++) {
      const base = x.offset + n * sn + c * sc;
      for (let oh = 0; oh < OH; oh++) {
        const h0 = h0s[oh];
        const h1 = h1s[oh];
        for (let ow = 0; ow < OW; ow++, oi++) {
          windowMax(
            xa,
            base,
            sh,
            sw,
            W,
            h0,
            h1,
            w0s[ow],
            w1s[ow],
            o,
            out.offset + oi,
            idx,
            indices.offset + oi,
          );
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
