/**
 * The fused LSTM step (ops/lstm-cell.ts) against a float64 reference on every test device: the new
 * state [h' | c'] and the gradients of the gates and of c, with c's rows apart (the previous
 * state's c' half, as nn.LSTM passes it) and large pre-activations (saturated gates).
 */
import { describe, expect, it } from 'vitest';
import { fromHost } from './creation';
import { lstmCell } from './lstm-cell';
import { mul } from './elementwise';
import { sum } from './reduce';
import { narrow } from './shape-ops';
import { testDevices } from '../testing/devices';
import { expectClose, rng } from '../testing/harness';

const devices = await testDevices();
const sig = (x: number) => 1 / (1 + Math.exp(-x));

/** Forward and backward in float64: state [B, 2H], dGates [B, 4H], dC [B, H]. */
function reference(gates: number[], c: number[], up: number[], B: number, H: number) {
  const state = new Array<number>(B * 2 * H);
  const dGates = new Array<number>(B * 4 * H);
  const dC = new Array<number>(B * H);
  for (let b = 0; b < B; b++) {
    for (let j = 0; j < H; j++) {
      const at = (k: number) => gates[b * 4 * H + k * H + j];
      const [i, f, g, o] = [sig(at(0)), sig(at(1)), Math.tanh(at(2)), sig(at(3))];
      const cp = c[b * H + j];
      const c2 = f * cp + i * g;
      const tc = Math.tanh(c2);
      state[b * 2 * H + j] = o * tc;
      state[b * 2 * H + H + j] = c2;
      const gh = up[b * 2 * H + j];
      const gc = up[b * 2 * H + H + j] + gh * o * (1 - tc * tc);
      dGates[b * 4 * H + j] = gc * g * i * (1 - i);
      dGates[b * 4 * H + H + j] = gc * cp * f * (1 - f);
      dGates[b * 4 * H + 2 * H + j] = gc * i * (1 - g * g);
      dGates[b * 4 * H + 3 * H + j] = gh * tc * o * (1 - o);
      dC[b * H + j] = gc * f;
    }
  }
  return { state, dGates, dC };
}

describe('lstmCell', () => {
  it.each(devices)('matches float64 forward and backward on %s', async (device) => {
    const [B, H] = [3, 5];
    const rand = rng(7);
    const gates = Array.from({ length: B * 4 * H }, (_, k) => (rand() * 2 - 1) * (k % 7 ? 2 : 12));
    const cPrev = Array.from({ length: B * H }, () => (rand() * 2 - 1) * 1.5);
    const up = Array.from({ length: B * 2 * H }, () => rand() * 2 - 1);
    const f32 = (v: number[]) => Array.from(Float32Array.from(v));
    const want = reference(f32(gates), f32(cPrev), f32(up), B, H);

    const g = fromHost(Float32Array.from(gates), [B, 4 * H], { device, requiresGrad: true });
    // c as the c' half of a [B, 2H] state: rows 2H apart.
    const wide = fromHost(
      Float32Array.from({ length: B * 2 * H }, (_, k) => {
        const [row, col] = [Math.floor(k / (2 * H)), k % (2 * H)];
        return col < H ? 9 : cPrev[row * H + col - H];
      }),
      [B, 2 * H],
      { device, requiresGrad: true },
    );
    const c = narrow(wide, 1, H, H);
    const state = lstmCell(g, c);
    expect(state.shape).toEqual([B, 2 * H]);
    expectClose(await state.data(), want.state, 'state', 1e-5);
    sum(mul(state, fromHost(Float32Array.from(up), [B, 2 * H], { device }))).backward();
    expectClose(await g.grad!.data(), want.dGates, 'gates grad', 1e-4);
    const dWide = Array.from(await wide.grad!.data());
    const dC = dWide.filter((_, k) => k % (2 * H) >= H);
    expect(dWide.filter((_, k) => k % (2 * H) < H).every((v) => v === 0)).toBe(true);
    expectClose(Float64Array.from(dC), want.dC, 'c grad', 1e-4);
  });
});
