/** The CPU's attention weights softmax(scale·s + m) and gradient (kernels/scale-mask-softmax.wgsl's loops). */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';

/** attention.ts's finite -∞: a fully masked row comes out uniform, as the composition's did. */
const MASKED = -1e30;
const f = Math.fround;

/** out [A, B, L, C] = softmax(scale·scores + m) along C; scores and out contiguous from their offsets. */
export function scaleMaskSoftmaxKernel(
  scores: View,
  mask: View | null,
  out: OutView,
  scale: number,
  causal: boolean,
): void {
  const [A, B, L, C] = scores.shape;
  const X = arrayOf(scores);
  const O = arrayOf(out);
  const M = mask ? arrayOf(mask) : null;
  const isBool = mask?.dtype === 'int32';
  const [sa, sb, sl, sc] = mask ? mask.strides : [0, 0, 0, 0];
  const v = new Float64Array(C);
  let row = 0;
  for (let a = 0; a < A; a++)
    for (let b = 0; b < B; b++)
      for (let l = 0; l < L; l++, row++) {
        const x = scores.offset + row * C;
        const mBase = (mask?.offset ?? 0) + a * sa + b * sb + l * sl;
        let max = -Infinity;
        for (let c = 0; c < C; c++) {
          // float32 steps, as the composition (mul, then add) rounded them
          let s = f(X[x + c] * f(scale));
          if (M) s = f(s + (isBool ? (M[mBase + c * sc] !== 0 ? 0 : MASKED) : M[mBase + c * sc]));
          if (causal && c > l) s = f(s + MASKED);
          v[c] = s;
          if (s > max) max = s;
        }
        let sum = 0;
        for (let c = 0; c < C; c++) sum += v[c] = Math.exp(v[c] - max);
        const o = out.offset + row * C;
        for (let c = 0; c < C; c++) O[o + c] = v[c] / sum;
      }
}

/** out [R, C] = scale · y ⊙ (g − Σ(g⊙y)) per row; views contiguous from their offsets. */
export function scaleMaskSoftmaxBackwardKernel(
  y: View,
  g: View,
  out: OutView,
  scale: number,
): void {
  const [rows, cols] = y.shape;
  const [Y, G, O] = [y, g, out].map(arrayOf);
  for (let r = 0; r < rows; r++) {
    const [yi, gi, oi] = [y.offset + r * cols, g.offset + r * cols, out.offset + r * cols];
    let dot = 0;
    for (let c = 0; c < cols; c++) dot += G[gi + c] * Y[yi + c];
    for (let c = 0; c < cols; c++) O[oi + c] = scale * Y[yi + c] * (G[gi + c] - dot);
  }
}
