import { describe, expect, it } from 'vitest';
import * as ops from './index';
import { adamStep, canFuseAdam } from './fused-adam';
import { testDevices } from '../testing/devices';

const devices = await testDevices();

/** Three Adam steps in float64, PyTorch's formulas. */
function reference(
  p: number[],
  grads: number[][],
  h: { lr: number; b1: number; b2: number; eps: number; wd: number; maximize: boolean },
): number[] {
  const m = p.map(() => 0);
  const v = p.map(() => 0);
  const out = [...p];
  grads.forEach((g, s) => {
    const t = s + 1;
    for (let i = 0; i < out.length; i++) {
      const gi = (h.maximize ? -g[i] : g[i]) + h.wd * out[i];
      m[i] = h.b1 * m[i] + (1 - h.b1) * gi;
      v[i] = h.b2 * v[i] + (1 - h.b2) * gi * gi;
      const denom = Math.sqrt(v[i]) / Math.sqrt(1 - h.b2 ** t) + h.eps;
      out[i] -= (h.lr / (1 - h.b1 ** t)) * (m[i] / denom);
    }
  });
  return out;
}

describe.each(devices.map((d) => [d.name, d] as const))('fused Adam on %s', (_, device) => {
  it('matches float64 Adam over three steps (odd size, weight decay, maximize)', async () => {
    const n = 1037;
    const random = (seed: number) =>
      Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 1.7);
    for (const h of [
      { lr: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8, wd: 0, maximize: false },
      { lr: 0.003, b1: 0.8, b2: 0.99, eps: 1e-6, wd: 0.05, maximize: true },
    ]) {
      const start = random(1);
      const grads = [random(2), random(3), random(4)];
      const p = ops.fromData(start, { device });
      const m = ops.zeros([n], { device });
      const v = ops.zeros([n], { device });
      grads.forEach((g, s) => {
        const grad = ops.fromData(g, { device });
        expect(canFuseAdam(p, grad, m, v)).toBe(true);
        adamStep(p, grad, m, v, {
          beta1: h.b1,
          beta2: h.b2,
          stepSize: h.lr / (1 - h.b1 ** (s + 1)),
          vScale: 1 / Math.sqrt(1 - h.b2 ** (s + 1)),
          eps: h.eps,
          weightDecay: h.wd,
          maximize: h.maximize,
        });
      });
      const got = await p.data();
      const expected = reference(start, grads, h);
      for (let i = 0; i < n; i++) expect(got[i]).toBeCloseTo(expected[i], 5);
    }
  });

  it('refuses views it cannot update in place', () => {
    const base = ops.zeros([4, 6], { device });
    const column = ops.transpose(base, 0, 1);
    expect(canFuseAdam(column, ops.zeros([6, 4], { device }), undefined, undefined)).toBe(false);
  });
});
