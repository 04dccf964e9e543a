/**
 * The fused GRU step (ops/gru-cell.ts) against a float64 reference on every test device: h' and
 * the gradients of x, hp and h, with large pre-activations (saturated gates).
 */
import { describe, expect, it } from 'vitest';
import { fromHost } from './creation';
import { gruCell } from './gru-cell';
import { mul } from './elementwise';
import { sum } from './reduce';
import { testDevices } from '../testing/devices';
import { expectClose, rng } from '../testing/harness';

const devices = await testDevices();
const sig = (x: number) => 1 / (1 + Math.exp(-x));

function reference(x: number[], hp: number[], h: number[], up: number[], B: number, H: number) {
  const out = new Array<number>(B * H);
  const dX = new Array<number>(B * 3 * H);
  const dHp = new Array<number>(B * 3 * H);
  const dH = new Array<number>(B * H);
  for (let b = 0; b < B; b++) {
    for (let j = 0; j < H; j++) {
      const at = (t: number[], k: number) => t[b * 3 * H + k * H + j];
      const r = sig(at(x, 0) + at(hp, 0));
      const z = sig(at(x, 1) + at(hp, 1));
      const hn = at(hp, 2);
      const n = Math.tanh(at(x, 2) + r * hn);
      const hv = h[b * H + j];
      out[b * H + j] = n + z * (hv - n);
      const go = up[b * H + j];
      const dn = go * (1 - z) * (1 - n * n);
      const dz = go * (hv - n) * z * (1 - z);
      const dr = dn * hn * r * (1 - r);
      const k = b * 3 * H + j;
      [dX[k], dX[k + H], dX[k + 2 * H]] = [dr, dz, dn];
      [dHp[k], dHp[k + H], dHp[k + 2 * H]] = [dr, dz, dn * r];
      dH[b * H + j] = go * z;
    }
  }
  return { out, dX, dHp, dH };
}

describe('gruCell', () => {
  it.each(devices)('matches float64 forward and backward on %s', async (device) => {
    const [B, H] = [3, 5];
    const rand = rng(11);
    const values = (n: number, big: boolean) =>
      Array.from({ length: n }, (_, k) =>
        Math.fround((rand() * 2 - 1) * (big && k % 5 === 0 ? 10 : 2)),
      );
    const [x, hp, h, up] = [
      values(B * 3 * H, true),
      values(B * 3 * H, true),
      values(B * H, false),
      values(B * H, false),
    ];
    const want = reference(x, hp, h, up, B, H);
    const t = (v: number[], shape: number[]) =>
      fromHost(Float32Array.from(v), shape, { device, requiresGrad: true });
    const [tx, thp, th] = [t(x, [B, 3 * H]), t(hp, [B, 3 * H]), t(h, [B, H])];
    const out = gruCell(tx, thp, th);
    expect(out.shape).toEqual([B, H]);
    expectClose(await out.data(), want.out, 'h', 1e-5);
    sum(mul(out, fromHost(Float32Array.from(up), [B, H], { device }))).backward();
    expectClose(await tx.grad!.data(), want.dX, 'x grad', 1e-4);
    expectClose(await thp.grad!.data(), want.dHp, 'hp grad', 1e-4);
    expectClose(await th.grad!.data(), want.dH, 'h grad', 1e-4);
  });
});
