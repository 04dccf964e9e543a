import { describe, expect, it, onTestFinished } from 'vitest';
import { fusionEnabled, ops, setFusion } from '../../engine';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { aggregateTimes, opName, profileText, deviceProfiler, runProfile } from './profile';
import type { WebGPUBackend } from '../../engine/backends/webgpu';

const devices = await testDevices();
const gpu = devices.find((d) => d.kind === 'gpu') ?? null;

describe('aggregateTimes', () => {
  it('sums dispatch times by op, largest first, with shares of the total', () => {
    const times = [
      { label: 'matmul[A_VEC_K|64x1]', ms: 0.004, count: 1 },
      { label: 'elementwise[add|f32f32>f32||r1]', ms: 0.001, count: 1 },
      { label: 'matmul[B_VEC_N|8x8]', ms: 0.002, count: 1 },
      { label: 'elementwise[add|f32f32>f32|VEC4|r1]', ms: 0.0005, count: 1 },
      { label: 'elementwise[mul|f32f32>f32||r1]', ms: 0.0025, count: 1 },
    ];
    const rows = aggregateTimes(times);
    expect(rows.map((r) => [r.op, r.calls])).toEqual([
      ['matmul', 2],
      ['elementwise:mul', 1],
      ['elementwise:add', 2],
    ]);
    expect(rows[0].totalMs).toBeCloseTo(0.006, 12);
    expect(rows[0].meanUs).toBeCloseTo(3, 12);
    expect(rows[2].percent).toBeCloseTo((100 * 1500) / 10000, 12);
    expect(aggregateTimes(times, { top: 1 })).toHaveLength(1);
    expect(aggregateTimes(times, { byKernel: true })).toHaveLength(5);
    expect(opName('softmax[LOG]')).toBe('softmax');
    expect(opName('random[normal]')).toBe('random:normal');
    expect(opName('fused-elementwise[mul+add|r1|float32|mul(i0,c0);add(v0,i0)|>1]')).toBe(
      'fused:mul+add',
    );
  });
});

describe.skipIf(!gpu || !deviceProfiler(gpu))('profile on WebGPU (timestamp queries)', () => {
  it('times every dispatch of the profiled function, grouped by op', async () => {
    const device = gpu!;
    // Unfused, so each add is a dispatch of its own (fusion would run the three as one).
    const fused = fusionEnabled();
    setFusion(false);
    onTestFinished(() => setFusion(fused));
    const random = rng(2);
    const host = Float32Array.from({ length: 48 * 48 }, () => random() - 0.5);
    const a = ops.fromHost(host, [48, 48], { device });
    const b = ops.fromHost(
      host.map((v) => v * 2),
      [48, 48],
      { device },
    );
    await ops.fromHost(new Float32Array(1), [1], { device }).data();
    const { profiles, unsupported } = await runProfile(async () => {
      let c = a.matmul(b);
      for (let i = 0; i < 3; i++) c = c.add(a);
      await c.data();
    });
    expect(unsupported).toEqual([]);
    expect(profiles).toHaveLength(1);
    const [p] = profiles;
    expect(p.device).toBe(device.name);
    const byOp = new Map(p.rows.map((r) => [r.op, r]));
    expect(byOp.get('elementwise:add')?.calls).toBe(3);
    // Matmul runs as one of its variants (matmul, matmul-tiled, matmul-blocked…).
    expect(p.rows.some((r) => r.op.startsWith('matmul') && r.calls >= 1)).toBe(true);
    expect(p.dispatches).toBe(p.rows.reduce((s, r) => s + r.calls, 0));
    expect(p.rows.reduce((s, r) => s + r.totalMs, 0)).toBeCloseTo(p.gpuMs, 9);
    if (p.gpuMs > 0) expect(p.rows.reduce((s, r) => s + r.percent, 0)).toBeCloseTo(100, 9);
    expect(profileText(p)).toMatch(/elementwise:add\s+3\s/);
    // Profiling is off again: later work runs untimed and still computes the right values.
    const backend = device.realBackend as WebGPUBackend;
    expect(backend.context.queue.profiler).toBeNull();
    const sum = await a.add(b).data();
    for (let i = 0; i < host.length; i++) expect(sum[i]).toBeCloseTo(host[i] * 3, 5);
  });
});
