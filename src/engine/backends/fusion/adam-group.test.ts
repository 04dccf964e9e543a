/**
 * Adam steps of several parameters recorded by the fusing layer run as one `adam` call: one
 * dispatch for up to four parameters on WebGPU, one call on the CPU. Checked against PyTorch's
 * Adam computed in float64 by hand, with fusion on and off, over three steps.
 */
import { describe, expect, it } from 'vitest';
import type { Device } from '../../devices/device';
import { fromHost } from '../../ops/creation';
import { Adam } from '../../optim';
import type { Tensor } from '../../tensor';
import { dispatches, testDevices } from '../../testing/devices';
import { expectClose, randomValues, rng } from '../../testing/harness';
import { setFusion } from './flag';
import { restoreAfterEach } from './test-support';

const devices = await testDevices();
restoreAfterEach();

const SIZES = [1, 7, 33, 130, 5, 64];
const STEPS = 3;
const random = rng(23);
const starts = SIZES.map((n) => randomValues(n, random));
const grads = SIZES.map((n) => Array.from({ length: STEPS }, () => randomValues(n, random)));

interface Hyper {
  lr: number;
  weightDecay: number;
}

/** PyTorch's Adam (betas 0.9 / 0.999, eps 1e-8, L2 weight decay) in float64, per parameter. */
function reference(index: number, { lr, weightDecay }: Hyper): number[] {
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  const p = [...starts[index]];
  const m = p.map(() => 0);
  const v = p.map(() => 0);
  for (let t = 1; t <= STEPS; t++) {
    for (let i = 0; i < p.length; i++) {
      const g = grads[index][t - 1][i] + weightDecay * p[i];
      m[i] = b1 * m[i] + (1 - b1) * g;
      v[i] = b2 * v[i] + (1 - b2) * g * g;
      const mHat = m[i] / (1 - b1 ** t);
      const vHat = v[i] / (1 - b2 ** t);
      p[i] -= (lr * mHat) / (Math.sqrt(vHat) + eps);
    }
  }
  return p;
}

/** Three Adam steps over every parameter; resolves with the kernels each step's update ran. */
async function train(
  device: Device,
  groups: { indices: number[]; hyper: Hyper }[],
): Promise<{ params: Tensor[]; kernels: number[] }> {
  const params = starts.map((s) =>
    fromHost(Float32Array.from(s), [s.length], { device, requiresGrad: true }),
  );
  const optimizer = new Adam(
    groups.map(({ indices, hyper }) => ({ params: indices.map((i) => params[i]), ...hyper })),
  );
  const kernels: number[] = [];
  for (let t = 0; t < STEPS; t++) {
    optimizer.zeroGrad();
    params.forEach((p, i) => {
      p.grad = fromHost(Float32Array.from(grads[i][t]), [SIZES[i]], { device });
    });
    await device.backend.synchronize();
    const before = dispatches(device);
    optimizer.step();
    await device.backend.synchronize();
    kernels.push(dispatches(device) - before);
  }
  return { params, kernels };
}

describe.each(devices.map((d) => [d.name, d] as const))('grouped Adam on %s', (_name, device) => {
  const one: Hyper = { lr: 0.01, weightDecay: 0 };
  const other: Hyper = { lr: 0.003, weightDecay: 0.1 };
  const groups = [
    { indices: [0, 1, 2, 3], hyper: one },
    { indices: [4, 5], hyper: other },
  ];

  it('updates several parameters per call, as PyTorch does, with fusion on and off', async () => {
    const perCall = device.kind === 'gpu' ? Math.min(4, Math.floor(maxBuffers(device) / 4)) : 6;
    for (const fused of [true, false]) {
      setFusion(fused);
      const { params, kernels } = await train(device, groups);
      for (const [g, { indices, hyper }] of groups.entries()) {
        for (const i of indices) {
          const got = (await params[i].data()) as Float32Array;
          expectClose(
            got,
            reference(i, hyper),
            `group ${g} param ${i} (fused ${fused})`,
            1e-5,
            1e-6,
          );
        }
      }
      // The first step also creates the moments (fills); later steps run only the updates: one
      // call per group of parameters sharing a step (split by the binding limit on WebGPU), or
      // one per parameter unfused.
      const grouped = groups.reduce((n, { indices }) => n + Math.ceil(indices.length / perCall), 0);
      expect(kernels.slice(1), `fused ${fused}`).toEqual(
        Array(STEPS - 1).fill(fused ? grouped : SIZES.length),
      );
      // The optimizer makes every moment before the first update (UpdateRule.prepare): the first
      // step runs one fill chain per parameter (m and v share it), then the same grouped calls.
      if (fused) expect(kernels[0], 'first step').toBe(SIZES.length + grouped);
    }
  });
});

/** The adapter's storage buffers per shader stage (what bounds one Adam dispatch). */
function maxBuffers(device: Device): number {
  return device.capability('fusionLimits')?.maxBuffers ?? 8;
}
