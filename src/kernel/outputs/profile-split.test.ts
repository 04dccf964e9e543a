/**
 * `profile` on a GPU split into logical GPUs (as the TF chapters do first): each logical GPU's
 * dispatches are timed through its backend's profiling capability, not reported as untimed.
 */
import { create, globals } from 'webgpu';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fusionEnabled, ops, setFusion } from '../../engine';
import { configureDevices, gpuDevices, initEngine } from '../../engine/devices/registry';
import { deviceProfiler, runProfile } from './profile';

Object.assign(globalThis, globals);
const gpu = create([]);
await initEngine({ gpu, devices: null });
const timestamps = gpuDevices()[0] ? deviceProfiler(gpuDevices()[0]) !== null : false;

describe.skipIf(!timestamps)('profile on two logical GPUs', () => {
  it('times the dispatches of each logical GPU', async () => {
    // Unfused, so the add and the mul are dispatches of their own.
    const fused = fusionEnabled();
    setFusion(false);
    onTestFinished(() => setFusion(fused));
    configureDevices('virtual', () => ({
      visible: null,
      gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 64 }, { memoryLimit: 64 }] }],
    }));
    const [first, second] = gpuDevices();
    expect(second).toBeDefined();
    const a = ops.randn([64, 64], { device: first });
    const b = ops.randn([64, 64], { device: second });
    // A logical GPU opens its device on first use; by the time a cell profiles, it has.
    await Promise.all([a.data(), b.data()]);
    const { profiles, unsupported } = await runProfile(async () => {
      await ops.add(a, a).data();
      await ops.add(ops.mul(b, 2), b).data();
    });
    expect(unsupported).toEqual([]);
    const adds = Object.fromEntries(
      profiles.map((p) => [p.device, p.rows.find((r) => r.op === 'elementwise:add')?.calls]),
    );
    expect(adds).toEqual({ [first.name]: 1, [second.name]: 1 });
    const onSecond = profiles.find((p) => p.device === second.name);
    expect(onSecond?.rows.find((r) => r.op === 'elementwise:mul')?.calls).toBe(1);
  });
});
