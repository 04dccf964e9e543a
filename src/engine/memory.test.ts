import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noGrad } from './autograd';
import type { Device } from './devices/device';
import {
  memoryAllocated,
  memorySpilled,
  setMemoryLimit,
  setParkingLimit,
  spillTraffic,
  synchronize,
} from './devices/stats';
import { setRootProvider, stepBoundary } from './memory';
import * as ops from './ops';
import { manualSeed } from './random';
import type { Tensor } from './tensor';
import { testDevices } from './testing/devices';
import { tidy } from './index';
import { SGD } from './optim';

const devices = await testDevices();

afterEach(() => setRootProvider(null));

/** A tiny optimizer: the real optim classes call stepBoundary() the same way. */
function sgdStep(params: Tensor[], lr: number): void {
  noGrad(() => {
    for (const p of params) {
      p.sub_(ops.mul(p.grad as Tensor, lr));
      p.grad = null;
    }
  });
  stepBoundary();
}

async function trainMlp(
  device: Device,
  steps: number,
): Promise<{ at10: number; atEnd: number; first: number; last: number; heldOk: boolean }> {
  manualSeed(42);
  const o = { device };
  // Held in a local only (no root sees it) and used every tenth step: spilled and restored again
  // and again, its values must never change.
  const held = ops.randn([64, 8], o);
  const heldValues = Array.from(await held.data());
  let heldOk = true;
  const x = ops.randn([32, 8], o);
  const y = ops.sum(ops.mul(x, 0.5), 1, true);
  const w1 = ops.mul(ops.randn([8, 16], o), 0.3).requiresGrad_();
  const b1 = ops.zeros([16], { device, requiresGrad: true });
  const w2 = ops.mul(ops.randn([16, 1], o), 0.3).requiresGrad_();
  const b2 = ops.zeros([1], { device, requiresGrad: true });
  let at10 = 0;
  let first = 0;
  let last = 0;
  for (let step = 1; step <= steps; step++) {
    const h = ops.relu(ops.add(ops.matmul(x, w1), b1));
    const out = ops.add(ops.matmul(h, w2), b2);
    const loss = ops.mseLoss(out, y);
    loss.backward();
    if (step === 1) first = await loss.item();
    if (step === steps) last = await loss.item();
    sgdStep([w1, b1, w2, b2], 0.05);
    if (step % 10 === 5) ops.add(held, 0);
    if (step % 250 === 5) {
      heldOk &&= Array.from(await held.data()).every((v, i) => v === heldValues[i]);
    }
    if (step === 10) at10 = memoryAllocated(device);
  }
  return { at10, atEnd: memoryAllocated(device), first, last, heldOk };
}

describe.each(devices.map((d) => [d.name, d] as const))(
  'memory without dispose on %s',
  (_, device) => {
    // These sweeps spill at once (no parking), as they did before parking.test.ts's rules: what is
    // tested here is that moving memory never loses a value and keeps the device flat.
    beforeEach(() => setParkingLimit(device, 0));
    afterEach(() => setParkingLimit(device, null));

    it('1000 training steps of an MLP keep memoryAllocated flat', async () => {
      const before = memoryAllocated(device);
      const traffic = spillTraffic(device);
      const { at10, atEnd, first, last, heldOk } = await trainMlp(device, 1000);
      expect(at10).toBeGreaterThan(before);
      // Never above step 10's figure; below it when the garbage collector took dropped outputs
      // before their sweep (autograd lets go of an op's backward once it ran).
      expect(atEnd).toBeLessThanOrEqual(at10);
      expect(heldOk).toBe(true);
      // The held tensor went to the host and came back about once every ten steps.
      expect(spillTraffic(device).restored - traffic.restored).toBeGreaterThanOrEqual(
        99 * 64 * 8 * 4,
      );
      expect(last).toBeLessThan(first * 0.2);
    });

    it('the graph holds what backward needs, and lets go of it when backward runs', () => {
      const n = 64 * 64 * 4;
      const x = ops.randn([64, 64], { device, requiresGrad: true });
      const base = memoryAllocated(device);
      const a = ops.mul(x, 0.1);
      const b = ops.exp(a);
      const c = ops.tanh(b);
      const y = ops.sum(c);
      for (const t of [a, b, c]) t.dispose();
      // exp and tanh saved their outputs; mul saved x, which is no new memory.
      expect(memoryAllocated(device) - base).toBe(4 + 2 * n);
      y.backward();
      // What remains: the loss itself and x.grad.
      expect(memoryAllocated(device) - base).toBe(4 + n);
      expect(() => y.backward()).toThrow('Trying to backward through the graph a second time');
    });

    it('frees a graph nobody can reach when its output is released', () => {
      const x = ops.randn([32, 32], { device, requiresGrad: true });
      const base = memoryAllocated(device);
      const m = ops.mul(x, 2);
      const s = ops.sigmoid(m);
      const loss = ops.sum(s);
      m.dispose();
      s.dispose();
      expect(memoryAllocated(device) - base).toBe(4 + 32 * 32 * 4);
      loss.dispose();
      expect(memoryAllocated(device)).toBe(base);
    });

    it('op temporaries are released when the op returns', () => {
      const a = ops.randn([16, 16], { device });
      const base = memoryAllocated(device);
      const loss = ops.mseLoss(a, ops.zeros([16, 16], { device })); // zeros is a user tensor, kept
      expect(memoryAllocated(device) - base).toBe(16 * 16 * 4 + 4);
      loss.dispose();
    });
  },
);

/** A tensor of seeded random values and its float64-exact host copy, to compare after spills. */
async function randomHeld(device: Device, shape: number[]): Promise<[Tensor, number[]]> {
  const t = ops.randn(shape, { device });
  return [t, Array.from(await t.data())];
}

describe.each(devices.map((d) => [d.name, d] as const))('step sweeps on %s', (_, device) => {
  // Spilling at every sweep (parking cap 0): how spilled memory behaves. parking.test.ts tests
  // when parked memory is spilled.
  beforeEach(() => setParkingLimit(device, 0));
  afterEach(() => setParkingLimit(device, null));

  it('spill old unused tensors to the host and bring them back exactly; keep used, kept and rooted ones', async () => {
    const scope: Record<string, unknown> = {};
    setRootProvider(() => [scope]);
    const [unused, unusedValues] = await randomHeld(device, [5, 7]);
    const usedEveryStep = ops.ones([3], { device });
    const kept = ops.ones([3], { device }).keep();
    scope.rooted = ops.ones([3], { device });
    scope.nested = { list: [new Map([['t', ops.ones([2], { device })]])] };
    for (let i = 0; i < 4; i++) {
      ops.add(usedEveryStep, 1);
      stepBoundary();
    }
    await synchronize(device);
    expect(unused.res.storage.spilled).toBe(true);
    for (const t of [usedEveryStep, kept, scope.rooted as Tensor]) {
      expect(t.res.storage.spilled).toBe(false);
    }
    const nested = (scope.nested as { list: Map<string, Tensor>[] }).list[0].get('t') as Tensor;
    expect(nested.res.storage.spilled).toBe(false);
    // Its next use brings it back: same values, device memory again, nothing left on the host.
    const allocated = memoryAllocated(device);
    const spilled = memorySpilled(device);
    const doubled = ops.mul(unused, 2);
    expect(unused.res.storage.spilled).toBe(false);
    expect(spilled - memorySpilled(device)).toBe(5 * 7 * 4);
    expect(memoryAllocated(device) - allocated).toBe(2 * 5 * 7 * 4);
    expect(Array.from(await unused.data())).toEqual(unusedValues);
    expect(Array.from(await doubled.data())).toEqual(unusedValues.map((v) => v * 2));
  });

  it('a tensor stays on the device through the boundary that closes its step, then moves', async () => {
    const [t, values] = await randomHeld(device, [4]);
    stepBoundary();
    expect(t.res.storage.spilled).toBe(false);
    stepBoundary();
    expect(t.res.storage.spilled).toBe(true);
    expect(t.isDisposed).toBe(false);
    // Reading it back (not an op) brings it back too.
    expect(Array.from(await t.data())).toEqual(values);
  });

  it('views, in-place updates and gradients of spilled tensors see the right values', async () => {
    const [base, values] = await randomHeld(device, [3, 4]);
    const view = ops.reshape(base, [12]);
    const w = ops.randn([4], { device, requiresGrad: true });
    const wValues = Array.from(await w.data());
    for (let i = 0; i < 3; i++) stepBoundary();
    expect(base.res.storage.spilled).toBe(true);
    view.add_(1); // an in-place write through a view restores the shared memory first
    expect(Array.from(await base.data())).toEqual(values.map((v) => Math.fround(v + 1)));
    const loss = ops.sum(ops.mul(w, 3));
    for (let i = 0; i < 3; i++) stepBoundary();
    loss.backward(); // the graph's saved tensors were spilled with it
    expect(Array.from(await (w.grad as Tensor).data())).toEqual([3, 3, 3, 3]);
    expect(Array.from(await w.data())).toEqual(wValues);
  });

  it('zero_grad releases a gradient nobody was handed at once, and keeps one the program read', async () => {
    const a = ops.randn([6, 5], { device });
    const [b, bValues] = await randomHeld(device, [6, 5]);
    const wa = ops.ones([6, 5], { device, requiresGrad: true }).keep();
    const wb = ops.ones([6, 5], { device, requiresGrad: true }).keep();
    const sgd = new SGD([wa, wb], { lr: 0 });
    ops.sum(ops.add(ops.mul(wa, a), ops.mul(wb, b))).backward();
    const read = wb.grad as Tensor; // the program holds wb's gradient; nobody saw wa's
    const allocated = memoryAllocated(device);
    const spilled = spillTraffic(device).spilled;
    sgd.zeroGrad();
    expect(wa.grad).toBeNull();
    expect(wb.grad).toBeNull();
    // wa's gradient (6x5 floats) went at once; wb's stays, and a sweep moves it, never loses it.
    expect(allocated - memoryAllocated(device)).toBe(6 * 5 * 4);
    for (let i = 0; i < 3; i++) stepBoundary();
    expect(spillTraffic(device).spilled - spilled).toBeGreaterThanOrEqual(6 * 5 * 4);
    expect(Array.from(await read.data())).toEqual(bValues);
  });

  it('the gradient of a surviving parameter survives', async () => {
    const w = ops.ones([2], { device, requiresGrad: true }).keep();
    ops.sum(ops.mul(w, 3)).backward();
    for (let i = 0; i < 5; i++) stepBoundary();
    expect(Array.from(await (w.grad as Tensor).data())).toEqual([3, 3]);
  });

  it('a spilled tensor that does not fit under the limit stays spilled and usable', async () => {
    const [held, values] = await randomHeld(device, [256]);
    for (let i = 0; i < 3; i++) stepBoundary();
    expect(held.res.storage.spilled).toBe(true);
    setMemoryLimit(device, memoryAllocated(device) + 512);
    const filler = ops.zeros([100], { device });
    try {
      expect(() => ops.add(held, 1)).toThrow(
        new RegExp(
          `Out of memory on ${device.name}: tried to allocate 1\\.00 KiB \\(1024 bytes\\)`,
        ),
      );
      expect(held.res.storage.spilled).toBe(true);
    } finally {
      setMemoryLimit(device, null);
    }
    filler.dispose();
    expect(Array.from(await ops.add(held, 1).data())).toEqual(
      values.map((v) => Math.fround(v + 1)),
    );
  });
});

describe('tidy and dispose', () => {
  const device = devices[0];

  it('tidy releases what it created except what it returns', () => {
    const base = memoryAllocated(device);
    let inner: Tensor | null = null;
    const result = tidy(() => {
      inner = ops.ones([100], { device });
      return { y: ops.mul(inner, 2) };
    });
    expect(memoryAllocated(device) - base).toBe(400);
    expect(() => ops.add(inner as unknown as Tensor, 1)).toThrow(
      'created inside tidy() and released when tidy() returned',
    );
    expect(() => ops.add(result.y, 1)).not.toThrow();
  });

  it('dispose frees memory now, and a view keeps shared memory alive', () => {
    const base = memoryAllocated(device);
    const t = ops.ones([10, 10], { device });
    const v = ops.reshape(t, [100]);
    t.dispose();
    expect(memoryAllocated(device) - base).toBe(400);
    v.dispose();
    expect(memoryAllocated(device)).toBe(base);
    expect(() => ops.add(t, 1)).toThrow('disposed');
  });
});
