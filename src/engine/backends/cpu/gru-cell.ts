/** The CPU's GRU cell step and its gradient (kernels/gru-cell.wgsl's loops; views contiguous). */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** out [B, H] = h' and act [B, 4H] = [r | z | n | hn], from x, hp [B, 3H] and h [B, H]. */
export function gruCellKernel(x: View, hp: View, h: View, out: OutView, act: OutView): void {
  const [batch, H] = h.shape;
  const [X, HP, Hs, O, A] = [x, hp, h, out, act].map(arrayOf);
  for (let b = 0; b < batch; b++) {
    for (let j = 0; j < H; j++) {
      const xi = x.offset + b * 3 * H + j;
      const pi = hp.offset + b * 3 * H + j;
      const r = Math.fround(sigmoid(X[xi] + HP[pi]));
      const z = Math.fround(sigmoid(X[xi + H] + HP[pi + H]));
      const hn = HP[pi + 2 * H];
      const n = Math.fround(Math.tanh(X[xi + 2 * H] + r * hn));
      const hv = Hs[h.offset + b * H + j];
      O[out.offset + b * H + j] = n + z * (hv - n);
      const a = act.offset + b * 4 * H + j;
      A[a] = r;
      A[a + H] = z;
      A[a + 2 * H] = n;
      A[a + 3 * H] = hn;
    }
  }
}

/** gX, gHp [B, 3H] (pre-activation) and gH [B, H] from act, h and gOut [B, H]. */
export function gruCellBackwardKernel(
  act: View,
  h: View,
  gOut: View,
  gX: OutView,
  gHp: OutView,
  gH: OutView,
): void {
  const [batch, H] = h.shape;
  const [A, Hs, GO, GX, GHP, GH] = [act, h, gOut, gX, gHp, gH].map(arrayOf);
  for (let b = 0; b < batch; b++) {
    for (let j = 0; j < H; j++) {
      const a = act.offset + b * 4 * H + j;
      const [r, z, n, hn] = [A[a], A[a + H], A[a + 2 * H], A[a + 3 * H]];
      const go = GO[gOut.offset + b * H + j];
      const hv = Hs[h.offset + b * H + j];
      const dn = go * (1 - z) * (1 - n * n);
      const dz = go * (hv - n) * z * (1 - z);
      const dr = dn * hn * r * (1 - r);
      const xi = gX.offset + b * 3 * H + j;
      GX[xi] = dr;
      GX[xi + H] = dz;
      GX[xi + 2 * H] = dn;
      const pi = gHp.offset + b * 3 * H + j;
      GHP[pi] = dr;
      GHP[pi + H] = dz;
      GHP[pi + 2 * H] = dn * r;
      GH[gH.offset + b * H + j] = go * z;
    }
  }
}
