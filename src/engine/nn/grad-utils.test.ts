import { describe, expect, it } from 'vitest';
import { fromHost } from '../ops/creation';
import { testDevices } from '../testing/devices';
import { expectClose, randomValues, rng } from '../testing/harness';
import type { Tensor } from '../tensor';
import type { Device } from '../devices/device';
import {
  clipGradNorm_,
  clipGradValue_,
  parametersToVector,
  vectorToParameters,
} from './grad-utils';

const devices = await testDevices();
const random = rng(7);
const sizes = [6, 3];
const values = sizes.map((n) => Array.from(randomValues(n, random)));
const gradValues = sizes.map((n) => Array.from(randomValues(n, random)));

function params(device: Device): Tensor[] {
  return sizes.map((n, i) => {
    const p = fromHost(Float32Array.from(values[i]), [n], { device });
    p.requiresGrad = true;
    p.grad = fromHost(Float32Array.from(gradValues[i]), [n], { device });
    return p;
  });
}

/** Float64 reference of PyTorch's clip_grad_norm_: (total, clipped grads). */
function reference(p: number, maxNorm: number): [number, number[][]] {
  const norms = gradValues.map((g) =>
    p === Infinity
      ? Math.max(...g.map(Math.abs))
      : g.reduce((s, v) => s + Math.abs(v) ** p, 0) ** (1 / p),
  );
  const total =
    p === Infinity ? Math.max(...norms) : norms.reduce((s, v) => s + v ** p, 0) ** (1 / p);
  const coef = Math.min(maxNorm / (total + 1e-6), 1);
  return [total, gradValues.map((g) => g.map((v) => v * coef))];
}

describe.each(devices)('torch.nn.utils on %s', (device) => {
  it.each([
    [2, 0.1],
    [1, 0.5],
    [Infinity, 0.05],
    [3, 100],
  ])('clipGradNorm_ with norm %s and max %s', async (p, maxNorm) => {
    const ps = params(device);
    const total = clipGradNorm_(ps, maxNorm, p);
    const [want, grads] = reference(p, maxNorm);
    expect(total.shape).toEqual([]);
    expect(total.deviceObject).toBe(device);
    expectClose(await total.data(), [want], 'total norm', 1e-5);
    for (const [i, q] of ps.entries())
      expectClose(await q.grad!.data(), grads[i], `gradient ${i}`, 1e-5);
  });

  it('clipGradNorm_ refuses a non-finite norm only when asked', async () => {
    const ps = params(device);
    ps[0].grad = fromHost(Float32Array.from([Infinity, 0, 0, 0, 0, 0]), [6], { device });
    expect(() => clipGradNorm_(ps, 1, 2, true)).toThrow(/total norm of order 2\.0/);
    expect(await clipGradNorm_(ps, 1).item()).toBe(Infinity);
  });

  it('clipGradValue_, parametersToVector and vectorToParameters', async () => {
    const ps = params(device);
    clipGradValue_(ps, 0.2);
    expectClose(
      await ps[0].grad!.data(),
      gradValues[0].map((v) => Math.fround(Math.max(-0.2, Math.min(0.2, v)))),
      'clipped by value',
      0,
      0,
    );
    const vec = parametersToVector(ps);
    expectClose(await vec.data(), [...values[0], ...values[1]].map(Math.fround), 'vector', 0, 0);
    vectorToParameters(
      fromHost(
        Float32Array.from({ length: 9 }, (_, i) => i),
        [9],
        { device },
      ),
      ps,
    );
    expectClose(await ps[1].data(), [6, 7, 8], 'written back', 0, 0);
    expect(() => vectorToParameters(vec, [ps[0]])).toThrow(/9 elements|6 elements/);
  });
});
