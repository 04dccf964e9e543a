import { describe, expect, it } from 'vitest';
import { testDevices } from '../testing/devices';
import { nodeGpu } from '../testing/node-gpu';
import { benchmarkDevice } from './device-benchmark';
import { EMULATED_PLAN, type BenchmarkPlan } from './plan';
import {
  benchmarkCells,
  benchmarkMarkdown,
  gflopsOf,
  gpuOverCpu,
  measured,
  percentOfPeak,
  type DeviceBenchmarkReport,
} from './report';
import { median, timeRepetitions } from './timing';

const devices = await testDevices();
const cpu = devices[0];
const gpu = devices.find((d) => d.kind === 'gpu') ?? null;

const TINY: BenchmarkPlan = {
  matmuls: [
    [33, 65, 17],
    [64, 64, 64],
  ],
  steps: [
    { name: 'linreg-step', size: 1000 },
    { name: 'cnn-step', size: 2 },
  ],
  // No budget in effect: runs are counted below, and on a slow host a step's first-use tuning
  // alone took longer than 20 s (the budget's rule is tested above with a clock of its own).
  timing: { warmup: 1, repeats: 3, budgetMs: 3_600_000 },
  rules: { minWarmupMs: 0, minTimedMs: 0, maxRepeats: 3 },
  peak: { invocations: 1 << 12, minRunMs: 5, maxIterations: 1024 },
};

describe('timing rules', () => {
  it('warm up, then time the requested runs, and stop at the budget', async () => {
    let clock = 0;
    let calls = 0;
    const setup = async () => ({
      run: async () => {
        calls++;
        clock += 10; // every run takes 10 ms of this clock
      },
    });
    const timed = await timeRepetitions(
      { warmup: 2, repeats: 4, budgetMs: 1e6 },
      {},
      setup,
      { minWarmupMs: 0, minTimedMs: 0, maxRepeats: 10 },
      () => clock,
    );
    expect(calls).toBe(6);
    expect(timed.seconds).toEqual([0.01, 0.01, 0.01, 0.01]);
    const budget = await timeRepetitions(
      { warmup: 0, repeats: 100, budgetMs: 35 },
      {},
      setup,
      { minWarmupMs: 0, minTimedMs: 0, maxRepeats: 100 },
      () => clock,
    );
    expect(budget.seconds.length).toBe(4);
    const failed = await timeRepetitions({ warmup: 0, repeats: 1, budgetMs: 1 }, {}, async () => {
      throw new Error('no adapter');
    });
    expect(failed).toEqual({ seconds: [], error: 'no adapter' });
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});

describe('device benchmark', () => {
  it('measures products and steps on the cpu and the GPU, with GFLOPS from its own times', async () => {
    const seen: string[] = [];
    const report = await benchmarkDevice({
      plan: TINY,
      cpu,
      gpu,
      webgpu: gpu ? nodeGpu() : null,
      progress: (t) => seen.push(t),
    });
    expect(report.rows.map((r) => r.case)).toEqual([
      'matmul m=33 k=65 n=17',
      'matmul m=64 k=64 n=64',
      'linreg-step points=1000',
      'cnn-step batch=2',
    ]);
    expect(seen).toContain('matmul m=33 k=65 n=17 on cpu');
    expect(report.rows[0].flops).toBe(2 * 33 * 65 * 17);
    for (const row of report.rows) {
      for (const side of gpu ? [row.cpu, row.gpu] : [row.cpu]) {
        const m = measured(side);
        expect(m, `${row.case}: ${JSON.stringify(side)}`).not.toBeNull();
        expect(m!.runs).toBe(3);
        expect(m!.minSeconds).toBeGreaterThan(0);
        expect(m!.minSeconds).toBeLessThanOrEqual(m!.medianSeconds);
        expect(m!.medianSeconds).toBeLessThanOrEqual(m!.maxSeconds);
        const g = gflopsOf(row, side);
        if (row.flops === 0) expect(g).toBeNull();
        else expect(g).toBeCloseTo(row.flops / m!.medianSeconds / 1e9, 9);
      }
      if (gpu) {
        expect(gpuOverCpu(row)).toBeCloseTo(
          measured(row.cpu)!.medianSeconds / measured(row.gpu)!.medianSeconds,
          9,
        );
      }
    }
    if (gpu) {
      expect(report.adapter).toBe(gpu.info.label);
      expect(report.peakError).toBeUndefined();
      expect(report.peakGflops).toBeGreaterThan(0);
      // Each GPU product carries the peak timed beside it, and its % of peak is against that;
      // the steps (no flop count) have none.
      for (const row of report.rows.slice(0, 2)) {
        expect(row.peakGflops, row.case).toBeGreaterThan(0);
        expect(percentOfPeak(row, report.peakGflops)).toBeCloseTo(
          (100 * gflopsOf(row, row.gpu)!) / row.peakGflops!,
          9,
        );
      }
      expect(seen.filter((t) => t === 'FMA peak of the adapter')).toHaveLength(1);
      for (const row of report.rows.slice(2)) expect(row.peakGflops).toBeUndefined();
    } else {
      expect(report.peakGflops).toBeNull();
    }
  }, 120_000);

  it('keeps the emulated plan a subset of the bench sizes', () => {
    expect(EMULATED_PLAN.matmuls.every(([m, k, n]) => m === k && k === n)).toBe(true);
  });
});

describe('report formatting', () => {
  const report: DeviceBenchmarkReport = {
    adapter: 'google | swiftshader',
    date: '2026-11-25T18:00:00.000Z',
    peakGflops: 10,
    rows: [
      {
        case: 'matmul m=1024 k=1024 n=1024',
        flops: 2 * 1024 ** 3,
        gpu: { medianSeconds: 0.5, minSeconds: 0.4, maxSeconds: 0.6, runs: 5 },
        cpu: { medianSeconds: 2, minSeconds: 2, maxSeconds: 2, runs: 3 },
      },
      {
        case: 'cnn-step batch=128',
        flops: 0,
        gpu: { error: 'device lost' },
        cpu: { medianSeconds: 0.0123, minSeconds: 0.012, maxSeconds: 0.013, runs: 5 },
      },
      {
        case: 'matmul m=512 k=512 n=512',
        flops: 2 * 512 ** 3,
        gpu: { medianSeconds: 0.1, minSeconds: 0.1, maxSeconds: 0.1, runs: 3 },
        cpu: null,
        peakGflops: 8,
      },
    ],
  };

  it('computes GFLOPS, % of peak and GPU / CPU, and writes them as cells', () => {
    // 2·512³ flops in 0.1 s = 2.68 GFLOPS: 34% of the 8 timed beside it (27% of the report's 10).
    expect(benchmarkCells(report)).toEqual([
      [
        'matmul m=1024 k=1024 n=1024',
        '500.0 ms n=5 (4.29 GFLOPS)',
        '43%',
        '2.00 s n=3 (1.07 GFLOPS)',
        '4.0×',
      ],
      ['cnn-step batch=128', 'error: device lost', '—', '12.3 ms n=5', '—'],
      ['matmul m=512 k=512 n=512', '100.0 ms n=3 (2.68 GFLOPS)', '34% of 8.00', '—', '—'],
    ]);
  });

  it('writes a Markdown table with a heading line (pipes escaped)', () => {
    const lines = benchmarkMarkdown(report).trimEnd().split('\n');
    expect(lines[0]).toBe(
      'gpubook device benchmark, 2026-11-25T18:00:00.000Z. Adapter: **google \\| swiftshader**, measured FMA peak 10.00 GFLOPS.',
    );
    expect(lines[3]).toBe('| case | GPU | GPU % of peak | CPU | GPU / CPU |');
    expect(lines[4]).toBe('| --- | --- | --- | --- | --- |');
    expect(lines[5]).toBe(
      '| matmul m=1024 k=1024 n=1024 | 500.0 ms n=5 (4.29 GFLOPS) | 43% | 2.00 s n=3 (1.07 GFLOPS) | 4.0× |',
    );
    expect(lines[7]).toBe(
      '| matmul m=512 k=512 n=512 | 100.0 ms n=3 (2.68 GFLOPS) | 34% of 8.00 | — | — |',
    );
    expect(lines).toHaveLength(8);
    for (const line of lines.slice(3)) expect(line.split(' | ')).toHaveLength(5);
  });
});
