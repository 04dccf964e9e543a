/**
 * CPU loops of the normalisation kernels over contiguous [A, C, B] (kernels/norm.wgsl's
 * counterparts): per channel, sums in float64, the variance from a second pass over x - mean.
 */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';

/** Calls fn(index) for each of channel c's A·B elements of a contiguous [A, C, B]. */
function eachOf(shape: readonly number[], c: number, fn: (i: number) => void): void {
  const [outer, channels, inner] = shape;
  for (let a = 0; a < outer; a++) {
    const base = (a * channels + c) * inner;
    for (let b = 0; b < inner; b++) fn(base + b);
  }
}

export function normalizeSlicesKernel(
  x: View,
  y: OutView,
  mean: OutView,
  variance: OutView,
  eps: number,
): void {
  const [outer, channels, inner] = x.shape;
  const count = outer * inner;
  const xa = arrayOf(x);
  const [ya, ma, va] = [arrayOf(y), arrayOf(mean), arrayOf(variance)];
  for (let c = 0; c < channels; c++) {
    let s = 0;
    eachOf(x.shape, c, (i) => (s += xa[x.offset + i]));
    const mu = s / count;
    let q = 0;
    eachOf(x.shape, c, (i) => (q += (xa[x.offset + i] - mu) ** 2));
    const v = q / count;
    const rstd = 1 / Math.sqrt(v + eps);
    eachOf(x.shape, c, (i) => (ya[y.offset + i] = (xa[x.offset + i] - mu) * rstd));
    ma[mean.offset + c] = mu;
    va[variance.offset + c] = v;
  }
}

export function normalizeSlicesBackwardKernel(
  g: View,
  y: View,
  variance: View,
  dx: OutView,
  eps: number,
): void {
  const [outer, channels, inner] = g.shape;
  const count = outer * inner;
  const [ga, ya, va, da] = [arrayOf(g), arrayOf(y), arrayOf(variance), arrayOf(dx)];
  for (let c = 0; c < channels; c++) {
    let sg = 0;
    let sgy = 0;
    eachOf(g.shape, c, (i) => {
      sg += ga[g.offset + i];
      sgy += ga[g.offset + i] * ya[y.offset + i];
    });
    const [mg, mgy] = [sg / count, sgy / count];
    const rstd = 1 / Math.sqrt(va[variance.offset + c] + eps);
    eachOf(g.shape, c, (i) => {
      da[dx.offset + i] = (ga[g.offset + i] - mg - ya[y.offset + i] * mgy) * rstd;
    });
  }
}
