/**
 * A leaf's new `.grad` is the gradient backward computed, not a copy of it, when only views that
 * backward itself made share its memory (backward.ts `ownsWholeStorage`); when anything that
 * outlives backward shares it (the caller's gradient), it is copied, so accumulating into `.grad`
 * later never writes into someone else's tensor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend, UnaryOp, View } from './backend';
import { fusionEnabled, setFusion } from './backends/fusion/flag';
import type { Device } from './devices/device';
import { Linear } from './nn/layers/linear';
import * as ops from './ops';
import type { Tensor } from './tensor';
import { testDevices } from './testing/devices';

const devices = await testDevices();
const initial = fusionEnabled();
afterEach(() => setFusion(initial));

/** Counts the copy kernels `fn` runs on `device` (fusion off, so each is its own call). */
function copiesDuring(device: Device, fn: () => void): number {
  setFusion(false);
  const backend = device.realBackend as Backend & { unary: Backend['unary'] };
  const own = Object.prototype.hasOwnProperty.call(backend, 'unary');
  const original = backend.unary;
  let copies = 0;
  backend.unary = (op: UnaryOp, x: View, out: View) => {
    if (op === 'copy') copies++;
    original.call(backend, op, x, out);
  };
  try {
    fn();
  } finally {
    if (own) backend.unary = original;
    else delete (backend as Partial<typeof backend>).unary;
  }
  return copies;
}

const values = async (t: Tensor | null): Promise<number[]> =>
  Array.from(await (t as Tensor).data());

describe.each(devices.map((d) => [d.name, d] as const))('gradient hand-over on %s', (_, device) => {
  it("a linear layer's gradients become .grad without a copy, with the right values", async () => {
    const layer = new Linear(2, 1);
    layer.to(device);
    const [w, b] = [layer.weight, layer.bias as Tensor];
    const wv = await values(w);
    const bv = await values(b);
    const xs = [0.5, -1.25, 2, 0.75, -0.3, 1.1, 1.7, -2.2, 0.05, 0.9];
    const ts = [1.5, -0.5, 0.25, 2, -1];
    const x = ops.fromData(xs, { device }).reshape([5, 2]);
    const t = ops.fromData(ts, { device }).reshape([5, 1]);
    const copies = copiesDuring(device, () => {
      const y = layer.forward(x);
      ops.mean(ops.square(ops.sub(y, t))).backward();
    });
    expect(copies).toBe(0);
    // Hand-derived in float64: r = y − t, dL/dy = 2r/5, dW = Σ (2r/5)·x, db = Σ 2r/5.
    const r = ts.map((tv, i) => wv[0] * xs[2 * i] + wv[1] * xs[2 * i + 1] + bv[0] - tv);
    const dW = [0, 1].map((j) => r.reduce((s, ri, i) => s + (2 * ri * xs[2 * i + j]) / 5, 0));
    const db = r.reduce((s, ri) => s + (2 * ri) / 5, 0);
    const gotW = await values(w.grad);
    const gotB = await values(b.grad);
    gotW.forEach((g, j) => expect(g).toBeCloseTo(dW[j], 5));
    expect(gotB[0]).toBeCloseTo(db, 5);
    // The next backward accumulates into the same tensors.
    const heldW = w.grad;
    ops.mean(ops.square(ops.sub(layer.forward(x), t))).backward();
    expect(w.grad).toBe(heldW);
    (await values(w.grad)).forEach((g, j) => expect(g).toBeCloseTo(2 * dW[j], 5));
    expect((await values(b.grad))[0]).toBeCloseTo(2 * db, 5);
  });

  it("a gradient that is a view of the caller's tensor is copied, and the caller's stays", async () => {
    const x = ops.fromData([1, 2, 3, 4], { device, requiresGrad: true });
    const given = ops.fromData([0.5, -1, 2, 3], { device });
    // reshape's backward hands back a view of `given` itself.
    const copies = copiesDuring(device, () =>
      ops.reshape(x, [2, 2]).backward(given.reshape([2, 2])),
    );
    expect(copies).toBe(1);
    expect(await values(x.grad)).toEqual([0.5, -1, 2, 3]);
    ops.sum(ops.mul(x, 2)).backward();
    expect(await values(x.grad)).toEqual([2.5, 1, 4, 5]);
    expect(await values(given)).toEqual([0.5, -1, 2, 3]);
  });
});
