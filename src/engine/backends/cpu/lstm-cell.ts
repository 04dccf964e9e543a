/** The CPU's LSTM cell step and its gradient (kernels/lstm-cell.wgsl's loops; views
 * contiguous from their offsets, but c's rows may be apart). */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** state [B, 2H] = [h' | c'] and act [B, 4H] = activated gates, from gates [B, 4H] and c [B, H]. */
export function lstmCellKernel(gates: View, c: View, state: OutView, act: OutView): void {
  const [batch, H] = c.shape;
  const G = arrayOf(gates);
  const C = arrayOf(c);
  const S = arrayOf(state);
  const A = arrayOf(act);
  for (let b = 0; b < batch; b++) {
    for (let j = 0; j < H; j++) {
      const x = gates.offset + b * 4 * H + j;
      const i = sigmoid(G[x]);
      const f = sigmoid(G[x + H]);
      const g = Math.tanh(G[x + 2 * H]);
      const o = sigmoid(G[x + 3 * H]);
      const c2 = Math.fround(f * C[c.offset + b * c.strides[0] + j] + i * g);
      const s = state.offset + b * 2 * H + j;
      S[s] = o * Math.tanh(c2);
      S[s + H] = c2;
      const a = act.offset + b * 4 * H + j;
      A[a] = i;
      A[a + H] = f;
      A[a + 2 * H] = g;
      A[a + 3 * H] = o;
    }
  }
}

/** gGates [B, 4H] (pre-activation) and gC [B, H] from act, c, state and gState [B, 2H]. */
export function lstmCellBackwardKernel(
  act: View,
  c: View,
  state: View,
  gState: View,
  gGates: OutView,
  gC: OutView,
): void {
  const [batch, H] = c.shape;
  const [A, C, S, GS, GG, GCo] = [act, c, state, gState, gGates, gC].map(arrayOf);
  for (let b = 0; b < batch; b++) {
    for (let j = 0; j < H; j++) {
      const a = act.offset + b * 4 * H + j;
      const [i, f, g, o] = [A[a], A[a + H], A[a + 2 * H], A[a + 3 * H]];
      const tc = Math.tanh(S[state.offset + b * 2 * H + j + H]);
      const gs = gState.offset + b * 2 * H + j;
      const gh = GS[gs];
      const gc = GS[gs + H] + gh * o * (1 - tc * tc);
      const cPrev = C[c.offset + b * c.strides[0] + j];
      const out = gGates.offset + b * 4 * H + j;
      GG[out] = gc * g * i * (1 - i);
      GG[out + H] = gc * cPrev * f * (1 - f);
      GG[out + 2 * H] = gc * i * (1 - g * g);
      GG[out + 3 * H] = gh * tc * o * (1 - o);
      GCo[gC.offset + b * H + j] = gc * f;
    }
  }
}
