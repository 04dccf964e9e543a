import { describe, expect, it } from 'vitest';
import { cpu, ops } from '../../engine';
import { rng } from '../../engine/testing/harness';
import { emulationNote, measure, summarize, timeDevices, timingChart } from './timing';
import { isEmulatedAdapter } from './emulated-adapter';

/** Float64 reference statistics written out longhand. */
function reference(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const n = s.length;
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  let sum = 0;
  for (const t of s) sum += t;
  const mean = sum / n;
  let sq = 0;
  for (const t of s) sq += (t - mean) * (t - mean);
  // numpy.percentile's default (linear): rank (n-1)q between neighbours.
  const pct = (q: number) => {
    const r = (n - 1) * q;
    const lo = Math.floor(r);
    return s[lo] + (r - lo) * ((s[lo + 1] ?? s[lo]) - s[lo]);
  };
  return {
    median,
    mean,
    std: Math.sqrt(sq / (n - 1)),
    min: s[0],
    max: s[n - 1],
    iqr: pct(0.75) - pct(0.25),
  };
}

describe('timing statistics', () => {
  it.each([5, 6, 11, 40])('match a float64 reference for %i random times', (n) => {
    const random = rng(n);
    const times = Array.from({ length: n }, () => 0.001 + random() * random());
    const stats = summarize(times);
    const ref = reference(times);
    expect(stats.runs).toBe(n);
    for (const key of ['median', 'mean', 'std', 'min', 'max', 'iqr'] as const) {
      expect(stats[key]).toBeCloseTo(ref[key], 14);
    }
  });

  it('a single run has no spread', () => {
    expect(summarize([0.25])).toMatchObject({ median: 0.25, std: 0, iqr: 0 });
  });
});

describe('measure', () => {
  it('drops warm-up runs and times each run until the device is synchronised', async () => {
    // A fake clock: each call of fn takes durations[i] ms, each sync another 1 ms.
    const durations = [50, 7, 3, 9, 4, 6];
    let clock = 0;
    let call = 0;
    const syncs: number[] = [];
    const times = await measure(
      () => {
        clock += durations[call++];
      },
      {
        repeat: 5,
        warmup: 1,
        now: () => clock,
        sync: async () => {
          syncs.push(call);
          clock += 1;
        },
      },
    );
    expect(syncs).toEqual([1, 2, 3, 4, 5, 6]);
    expect(times).toEqual([0.008, 0.004, 0.01, 0.005, 0.007]);
    expect(summarize(times).median).toBe(0.007);
  });

  it('awaits asynchronous functions', async () => {
    let clock = 0;
    const times = await measure(
      async () => {
        await new Promise((r) => setTimeout(r, 1));
        clock += 2;
      },
      { repeat: 3, warmup: 0, now: () => clock, sync: async () => {} },
    );
    expect(times).toEqual([0.002, 0.002, 0.002]);
  });

  it('rejects a repeat count that is not a positive integer', async () => {
    await expect(measure(() => {}, { repeat: 0 })).rejects.toThrow(/repeat/);
  });
});

describe('timeDevices', () => {
  it('gives each device its median and the speed-up over the cpu', async () => {
    const cost = [9, 10, 40, 11];
    let clock = 0;
    const seen: string[] = [];
    let i = 0;
    const rows = await timeDevices(
      (device) => {
        seen.push(device);
        clock += cost[i++ % 4];
      },
      { devices: ['cpu', 'cpu'], repeat: 3, warmup: 1, now: () => clock, sync: async () => {} },
    );
    expect(seen).toEqual(['cpu', 'cpu', 'cpu', 'cpu', 'cpu', 'cpu', 'cpu', 'cpu']);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      device: 'cpu',
      adapter: 'CPU',
      median_ms: 11,
      min_ms: 10,
      max_ms: 40,
    });
    expect(rows[0].speedup).toBe(1);
    const chart = timingChart(rows).toData();
    expect(chart.panels.map((p) => p.kind)).toEqual(['bar', 'bar']);
    expect(chart.panels[0].categories).toEqual(['cpu', 'cpu']);
    expect(chart.panels[0].series[0].points).toEqual([
      [0, rows[0].median_ms],
      [1, rows[1].median_ms],
    ]);
  });

  it('times real work on the cpu, waiting for it', async () => {
    const a = ops.fromHost(new Float32Array(64 * 64).fill(1), [64, 64], { device: cpu() });
    const rows = await timeDevices((device) => a.to(device).matmul(a), {
      devices: ['cpu'],
      repeat: 2,
    });
    expect(rows[0].median_ms).toBeGreaterThan(0);
  });

  it('says plainly when a "GPU" is an emulation', () => {
    expect(isEmulatedAdapter('Google SwiftShader')).toBe(true);
    expect(isEmulatedAdapter('NVIDIA GeForce RTX 4070')).toBe(false);
    const note = emulationNote([
      { device: 'cpu', adapter: 'CPU', median_ms: 1, min_ms: 1, max_ms: 1, speedup: 1 },
      {
        device: 'gpu:0',
        adapter: 'google swiftshader',
        median_ms: 1,
        min_ms: 1,
        max_ms: 1,
        speedup: 1,
      },
    ]);
    expect(note).toMatch(/gpu:0 \(google swiftshader\).*CPU emulation/);
  });
});
