import { describe, expect, it } from 'vitest';
import { enableGrad, isGradEnabled, noGrad } from './autograd';
import * as ops from './ops';
import type { Tensor } from './tensor';
import { testDevices } from './testing/devices';

const devices = await testDevices();

const grad = async (t: Tensor): Promise<number[]> => Array.from(await (t.grad as Tensor).data());

describe.each(devices.map((d) => [d.name, d] as const))('autograd on %s', (_, device) => {
  it('accumulates .grad across backward calls', async () => {
    const w = ops.fromData([1, 2, 3], { device, requiresGrad: true });
    ops.sum(ops.mul(w, w)).backward();
    expect(await grad(w)).toEqual([2, 4, 6]);
    const held = w.grad as Tensor;
    ops.sum(ops.mul(w, 10)).backward();
    expect(await grad(w)).toEqual([12, 14, 16]);
    expect(w.grad).toBe(held); // accumulated in place, as PyTorch does
  });

  it('sums gradients of a tensor used twice', async () => {
    const x = ops.fromData([2, -1], { device, requiresGrad: true });
    const y = ops.add(ops.mul(x, x), ops.mul(x, 3)); // x^2 + 3x
    ops.sum(y).backward();
    expect(await grad(x)).toEqual([7, 1]);
  });

  it('backward takes a gradient for non-scalar outputs, and refuses without one', async () => {
    const x = ops.fromData([1, 2], { device, requiresGrad: true });
    const y = ops.mul(x, 3);
    expect(() => y.backward()).toThrow('grad can be implicitly created only for scalar outputs');
    y.backward(ops.fromData([1, 10], { device }));
    expect(await grad(x)).toEqual([3, 30]);
  });

  it('retainGraph allows a second backward', async () => {
    const x = ops.fromData([3], { device, requiresGrad: true });
    const y = ops.sum(ops.exp(x));
    y.backward({ retainGraph: true });
    y.backward();
    expect((await grad(x))[0]).toBeCloseTo(2 * Math.exp(3), 3);
    expect(() => y.backward()).toThrow('backward through the graph a second time');
  });

  it('detach and noGrad stop gradients; requiresGrad is a property and an option', async () => {
    const x = ops.fromData([1, 2], { device, requiresGrad: true });
    expect(x.requiresGrad).toBe(true);
    expect(x.isLeaf).toBe(true);
    const d = x.detach();
    expect(d.requiresGrad).toBe(false);
    const y = noGrad(() => ops.mul(x, 2));
    expect(y.requiresGrad).toBe(false);
    expect(() => ops.sum(y).backward()).toThrow('does not require grad');
    const z = ops.mul(x, 2);
    expect(z.requiresGrad).toBe(true);
    expect(z.isLeaf).toBe(false);
    expect(z.gradFn?.name).toBe('MulBackward0');
    expect(() => {
      z.requiresGrad = false;
    }).toThrow('leaf variables');
  });

  it('noGrad works with async functions and restores the mode', async () => {
    expect(isGradEnabled()).toBe(true);
    const x = ops.fromData([1], { device, requiresGrad: true });
    const y = await noGrad(async () => {
      await Promise.resolve();
      expect(enableGrad(() => isGradEnabled())).toBe(true);
      return ops.mul(x, 2);
    });
    expect(y.requiresGrad).toBe(false);
    expect(isGradEnabled()).toBe(true);
  });

  it('int tensors cannot require grad', () => {
    const i = ops.arange(0, 3, 1, { device });
    expect(() => {
      i.requiresGrad = true;
    }).toThrow('Only float32 tensors can require gradients');
  });

  it('refuses in-place updates of a leaf that requires grad outside noGrad', async () => {
    const w = ops.fromData([1, 2], { device, requiresGrad: true });
    expect(() => w.sub_(1)).toThrow(
      'a leaf Variable that requires grad is being used in an in-place operation',
    );
    noGrad(() => w.sub_(1));
    expect(Array.from(await w.data())).toEqual([0, 1]);
  });

  it('detects a saved tensor modified in place before backward', () => {
    const x = ops.fromData([1, 2], { device, requiresGrad: true });
    const e = ops.exp(x);
    const y = ops.sum(ops.mul(e, e));
    noGrad(() => e.detach().mul_(2));
    expect(() => y.backward()).toThrow('modified by an inplace operation');
  });

  it('gradients flow across devices through .to()', async () => {
    const x = ops.fromData([1, 2, 3], { device: devices[0], requiresGrad: true });
    const moved = x.to(device);
    ops.sum(ops.mul(moved, moved)).backward();
    expect(x.grad?.device).toBe('cpu');
    expect(await grad(x)).toEqual([2, 4, 6]);
  });
});
