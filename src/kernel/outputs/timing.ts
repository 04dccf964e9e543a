/**
 * `timeit(fn)` and `compareDevices(fn)`: warm-up runs (where GPU kernels tune), then timed runs
 * each ending only when the devices have finished the queued work (GPU work is asynchronous:
 * without the wait a matmul "takes" microseconds), reported as the median with its spread, and
 * for several devices as a table and bar chart of times and speed-ups relative to the CPU.
 */
import { getDevice, listDevices, synchronize, tuningAtFirstUse } from '../../engine';
import { Chart } from './chart';
import { formatG } from './progress-format';
import { isEmulatedAdapter } from './emulated-adapter';

export interface TimingStats {
  runs: number;
  median: number;
  mean: number;
  /** Sample standard deviation (0 for one run). */
  std: number;
  min: number;
  max: number;
  /** Interquartile range (linear interpolation between order statistics, as numpy's default). */
  iqr: number;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function summarize(times: readonly number[]): TimingStats {
  if (times.length === 0) throw new RangeError('summarize: no times');
  const sorted = [...times].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((s, t) => s + t, 0) / n;
  const variance = n > 1 ? sorted.reduce((s, t) => s + (t - mean) ** 2, 0) / (n - 1) : 0;
  return {
    runs: n,
    median: quantile(sorted, 0.5),
    mean,
    std: Math.sqrt(variance),
    min: sorted[0],
    max: sorted[n - 1],
    iqr: quantile(sorted, 0.75) - quantile(sorted, 0.25),
  };
}

/** Seconds in the unit a reader wants: `812 µs`, `12.3 ms`, `1.52 s`. */
export function formatSeconds(seconds: number): string {
  if (seconds < 1e-3) return `${formatG(seconds * 1e6, 3)} µs`;
  if (seconds < 1) return `${formatG(seconds * 1e3, 3)} ms`;
  return `${formatG(seconds, 3)} s`;
}

export interface TimeOptions {
  repeat?: number;
  warmup?: number;
  /** Waits for queued device work after each run (default: every device). */
  sync?: () => Promise<void>;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

/** Runs `fn` `warmup` times untimed and `repeat` times timed; returns the seconds of each. */
export async function measure(fn: () => unknown, options: TimeOptions = {}): Promise<number[]> {
  const repeat = options.repeat ?? 5;
  const warmup = options.warmup ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) {
    throw new RangeError(`repeat must be a positive integer, got ${repeat}`);
  }
  if (!Number.isInteger(warmup) || warmup < 0) {
    throw new RangeError(`warmup must be a non-negative integer, got ${warmup}`);
  }
  const sync = options.sync ?? (() => synchronize());
  const now = options.now ?? (() => performance.now());
  // No stepBoundary between runs: it would release tensors a closure keeps across runs (only
  // the notebook's variables are known roots); what the runs leave is swept at the next step.
  const run = async (): Promise<number> => {
    const start = now();
    await fn();
    await sync();
    return (now() - start) / 1000;
  };
  // Warm-ups take the one-time costs, tuning among them: each shape class the runs use tunes at
  // its first op here, so no timed run carries a tuning run (under the notebook's policy one
  // would start in whichever run the class had done enough work by).
  if (warmup > 0) {
    await tuningAtFirstUse(async () => {
      for (let i = 0; i < warmup; i++) await run();
    });
  }
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) times.push(await run());
  return times;
}

/** The line timeit prints: `12.3 ms ± 0.41 ms (median ± IQR/2 of 5 runs, 1 warm-up)`. */
export function timingLine(stats: TimingStats, warmup: number): string {
  const spread = stats.runs > 1 ? ` ± ${formatSeconds(stats.iqr / 2)}` : '';
  const runs = `${stats.runs} run${stats.runs === 1 ? '' : 's'}`;
  const warm = `${warmup} warm-up${warmup === 1 ? '' : 's'}`;
  return (
    `${formatSeconds(stats.median)}${spread} per run ` +
    `(median${stats.runs > 1 ? ' ± half the IQR' : ''} of ${runs}, ${warm}; ` +
    `min ${formatSeconds(stats.min)}, max ${formatSeconds(stats.max)})`
  );
}

export interface DeviceTiming {
  device: string;
  adapter: string;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  /** The reference device's median over this one's (above 1: faster). */
  speedup: number;
}

export interface CompareOptions extends TimeOptions {
  devices?: string[];
}

/** Times `fn(device)` on each device; the first rows' reference is the cpu when it is timed. */
export async function timeDevices(
  fn: (device: string) => unknown,
  options: CompareOptions = {},
): Promise<DeviceTiming[]> {
  const names = options.devices ?? listDevices().map((d) => d.name);
  if (names.length === 0) throw new Error('compareDevices: no devices to compare');
  const measured: { device: string; adapter: string; stats: TimingStats }[] = [];
  for (const name of names) {
    const device = getDevice(name);
    const times = await measure(() => fn(device.name), {
      ...options,
      sync: options.sync ?? (() => synchronize(device)),
    });
    measured.push({ device: device.name, adapter: device.info.label, stats: summarize(times) });
  }
  const reference = measured.find((m) => m.device === 'cpu') ?? measured[0];
  return measured.map((m) => ({
    device: m.device,
    adapter: m.adapter,
    median_ms: m.stats.median * 1e3,
    min_ms: m.stats.min * 1e3,
    max_ms: m.stats.max * 1e3,
    speedup: reference.stats.median / m.stats.median,
  }));
}

/** The bar chart compareDevices draws: time per device and speed-up over the reference. */
export function timingChart(rows: readonly DeviceTiming[], title?: string): Chart {
  const chart = new Chart({ kind: 'bar', ...(title ? { title } : {}) });
  const categories = rows.map((r) => r.device);
  chart.setSeries(
    'time_ms',
    rows.map((r, i) => [i, r.median_ms]),
    { panel: 'time (ms)', categories, yLabel: 'median ms' },
  );
  chart.setSeries(
    'speedup',
    rows.map((r, i) => [i, r.speedup]),
    { panel: 'speed-up (×)', categories, yLabel: '× vs cpu' },
  );
  return chart;
}

/** A plain word about emulated adapters, so nobody reads SwiftShader's times as a GPU's. */
export function emulationNote(rows: readonly DeviceTiming[]): string | null {
  const emulated = rows.filter((r) => r.device !== 'cpu' && isEmulatedAdapter(r.adapter));
  if (emulated.length === 0) return null;
  const which = emulated.map((r) => `${r.device} (${r.adapter})`).join(', ');
  return (
    `Note: ${which} is SwiftShader-like CPU emulation of a GPU, not a GPU: its times measure ` +
    `this computer's CPU running GPU code, and say nothing about a real GPU.`
  );
}
