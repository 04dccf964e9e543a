import { afterEach, describe, expect, it } from 'vitest';
import type { Device } from './devices/device';
import {
  maxMemoryAllocated,
  memoryAllocated,
  memoryParked,
  resetPeakMemoryStats,
  setMemoryLimit,
  setParkingLimit,
  spillTraffic,
} from './devices/stats';
import * as ops from './ops';
import { Adam } from './optim';
import { manualSeed } from './random';
import type { Tensor } from './tensor';
import { testDevices } from './testing/devices';

const devices = await testDevices();

/** Everything on the device: what its tensors hold plus what sweeps parked there. */
function deviceBytes(device: Device): number {
  return memoryAllocated(device) + memoryParked(device);
}

/**
 * The bench's linear-regression step at a small size: each step hands the program the model's
 * output and the loss, and the program drops both (the step sweep cannot know it has).
 */
function linregLoop(device: Device, n: number): () => { out: Tensor; loss: Tensor } {
  const on = { device };
  const x = ops.randn([n, 2], on).keep();
  const y = ops.add(ops.matmul(x, ops.fromData([[2], [-3.4]], on)), 4.2).keep();
  const w = ops.zeros([2, 1], { device, requiresGrad: true }).keep();
  const b = ops.zeros([1], { device, requiresGrad: true }).keep();
  const optimizer = new Adam([w, b], { lr: 0.05 });
  return () => {
    optimizer.zeroGrad();
    const out = ops.add(ops.matmul(x, w), b);
    const loss = ops.mseLoss(out, y);
    loss.backward();
    optimizer.step(); // a step boundary
    return { out, loss };
  };
}

describe.each(devices.map((d) => [d.name, d] as const))('parked memory on %s', (_, device) => {
  afterEach(() => {
    setMemoryLimit(device, null);
    setParkingLimit(device, null);
  });

  it('a loop that drops what it replaces reads nothing back while memory is plentiful', async () => {
    manualSeed(3);
    const step = linregLoop(device, 4096);
    const first = step().out; // held by the program throughout
    const firstValues = Array.from(await first.data());
    const spilled = spillTraffic(device).spilled;
    for (let i = 0; i < 12; i++) step();
    expect(spillTraffic(device).spilled - spilled).toBe(0);
    // The held output is parked (still on the device), not spilled.
    expect(memoryParked(device)).toBeGreaterThanOrEqual(4096 * 4);
    expect(first.res.storage.isParked).toBe(true);
    expect(first.res.storage.spilled).toBe(false);
    expect(Array.from(await first.data())).toEqual(firstValues);
  });

  it('under a memory limit, parked memory is spilled oldest first and the device stays flat', async () => {
    manualSeed(4);
    const n = 4096;
    const step = linregLoop(device, n);
    for (let i = 0; i < 3; i++) step();
    resetPeakMemoryStats(device);
    step();
    // Room for what one step needs plus four parked outputs: the loop must spill to go on.
    const limit = maxMemoryAllocated(device) + 4 * n * 4;
    setMemoryLimit(device, limit);
    const spilled = spillTraffic(device).spilled;
    // The program holds every fifth output (they can only be spilled, never released), with the
    // values it had when computed.
    const held: [Tensor, number[]][] = [];
    const allocated: number[] = [];
    for (let i = 0; i < 60; i++) {
      const { out } = step();
      if (i % 5 === 0) held.push([out, Array.from(await out.data())]);
      allocated.push(deviceBytes(device));
    }
    expect(spillTraffic(device).spilled - spilled).toBeGreaterThanOrEqual(8 * n * 4);
    expect(maxMemoryAllocated(device)).toBeLessThanOrEqual(limit);
    expect(Math.max(...allocated.slice(30))).toBeLessThanOrEqual(
      Math.max(...allocated.slice(0, 30)),
    );
    expect(held.some(([t]) => t.res.storage.spilled)).toBe(true);
    for (const [t, values] of held) expect(Array.from(await t.data())).toEqual(values);
  });

  it('an allocation past the limit spills parked memory instead of failing', async () => {
    manualSeed(5);
    const parked = ops.randn([1024], { device });
    const values = Array.from(await parked.data());
    const step = linregLoop(device, 64);
    for (let i = 0; i < 3; i++) step();
    expect(parked.res.storage.isParked).toBe(true);
    // Room for the new 4 KiB only once everything parked (earlier steps' outputs too) is spilled.
    const limit = memoryAllocated(device) + 4096;
    const spilled = spillTraffic(device).spilled;
    setMemoryLimit(device, limit);
    const big = ops.zeros([1024], { device });
    expect(parked.res.storage.spilled).toBe(true);
    expect(memoryParked(device)).toBe(0);
    expect(spillTraffic(device).spilled - spilled).toBeGreaterThanOrEqual(4096);
    expect(deviceBytes(device)).toBeLessThanOrEqual(limit);
    big.dispose();
    setMemoryLimit(device, null);
    // Its next use brings it back, exactly, and it is no longer first in line.
    const doubled = ops.mul(parked, 2);
    expect(parked.res.storage.spilled).toBe(false);
    expect(parked.res.storage.isParked).toBe(false);
    expect(Array.from(await doubled.data())).toEqual(values.map((v) => Math.fround(v * 2)));
  });
});
