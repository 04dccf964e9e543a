/**
 * `profile(fn)`: runs `fn` with every GPU timing each dispatch (the WebGPU backend's timestamp
 * profiler), then shows per device the ops that took the most GPU time — calls, total, mean and
 * share — like `torch.profiler`'s `key_averages().table()`.
 */
import { gpuDevices, synchronize, type Device } from '../../engine';
import type { Profiling } from '../../engine/backend';
import { PROFILE_MIME, type MimeBundle, type ProfileData, type ProfileRow } from '../protocol';
import { isEmulatedAdapter } from './emulated-adapter';
import { formatSeconds } from './timing';

/** Total time and count of one kernel variant, as the backend's profiler reports them. */
export interface KernelTotal {
  label: string;
  ms: number;
  count: number;
}

/**
 * A device's dispatch profiler, if its backend can time dispatches (WebGPU with timestamp
 * queries), whether the device is a whole GPU or one of the logical GPUs it was split into.
 */
export function deviceProfiler(device: Device): Profiling | null {
  return device.capability('profiling');
}

/** A kernel label `elementwise[add|f32f32>f32|…]` as the op a reader knows: `elementwise:add`. */
export function opName(label: string): string {
  const open = label.indexOf('[');
  if (open < 0) return label;
  const name = label.slice(0, open);
  const key = label.slice(open + 1, label.endsWith(']') ? -1 : undefined);
  const first = key.split('|')[0];
  if ((name === 'elementwise' || name === 'reduce' || name === 'random') && first) {
    return `${name}:${first}`;
  }
  // A fused element-wise chain (engine/backends/fusion/) by its ops: fused:mul+add.
  if (name === 'fused-elementwise' && first) return `fused:${first}`;
  return name;
}

export interface ProfileOptions {
  /** Rows shown (default 15). */
  top?: number;
  /** Group by the full kernel variant instead of the op (default false). */
  byKernel?: boolean;
}

/** Sums kernel times by op, largest total first. */
export function aggregateTimes(
  totals: readonly KernelTotal[],
  options: ProfileOptions = {},
): ProfileRow[] {
  const groups = new Map<string, { calls: number; ms: number }>();
  for (const t of totals) {
    const key = options.byKernel ? t.label : opName(t.label);
    const g = groups.get(key) ?? { calls: 0, ms: 0 };
    g.calls += t.count;
    g.ms += t.ms;
    groups.set(key, g);
  }
  const all = totals.reduce((s, t) => s + t.ms, 0);
  return [...groups.entries()]
    .map(([op, g]) => ({
      op,
      calls: g.calls,
      totalMs: g.ms,
      meanUs: (g.ms * 1e3) / g.calls,
      percent: all > 0 ? (100 * g.ms) / all : 0,
    }))
    .sort((a, b) => b.totalMs - a.totalMs || b.calls - a.calls)
    .slice(0, options.top ?? 15);
}

/** The profile as a fixed-width table (the text/plain of the output). */
export function profileText(data: ProfileData): string {
  const header = ['op', 'calls', 'GPU total', 'GPU mean', '%'];
  const rows = data.rows.map((r) => [
    r.op,
    String(r.calls),
    formatSeconds(r.totalMs / 1e3),
    formatSeconds(r.meanUs / 1e6),
    `${r.percent.toFixed(1)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const title =
    `GPU profile of ${data.device} (${data.adapter}): ${data.dispatches} dispatches, ` +
    `${formatSeconds(data.gpuMs / 1e3)} of GPU time in ${formatSeconds(data.wallMs / 1e3)} wall time`;
  const lines = [title, line(header), ...rows.map(line)];
  if (data.note) lines.push(data.note);
  return lines.join('\n');
}

export function profileBundle(data: ProfileData): MimeBundle {
  return { 'text/plain': profileText(data), [PROFILE_MIME]: data };
}

/** Runs `fn` with dispatch timing on every GPU that has timestamp queries. */
export async function runProfile(
  fn: () => unknown,
  options: ProfileOptions = {},
): Promise<{ profiles: ProfileData[]; unsupported: string[] }> {
  const timed = gpuDevices().flatMap((device) => {
    const profiler = deviceProfiler(device);
    return profiler ? [{ device, stop: profiler.profileDispatches() }] : [];
  });
  const unsupported = gpuDevices()
    .filter((d) => !timed.some((t) => t.device === d))
    .map((d) => d.name);
  const start = performance.now();
  try {
    await fn();
  } finally {
    // Everything fn queued is submitted (and its queries resolved) before timing stops.
    await synchronize().catch(() => {});
  }
  const wallMs = performance.now() - start;
  const profiles: ProfileData[] = [];
  for (const t of timed) {
    const totals = await t.stop();
    const data: ProfileData = {
      device: t.device.name,
      adapter: t.device.info.label,
      wallMs,
      gpuMs: totals.reduce((s, x) => s + x.ms, 0),
      dispatches: totals.reduce((s, x) => s + x.count, 0),
      rows: aggregateTimes(totals, options),
    };
    if (isEmulatedAdapter(t.device.info.label)) {
      data.note = 'This adapter is a CPU emulation (SwiftShader): its kernel times are CPU times.';
    }
    profiles.push(data);
  }
  return { profiles, unsupported };
}
