/**
 * `profile(fn)`: runs `fn` with every GPU timing each dispatch (timestamp queries), then shows
 * per device the ops that took the most GPU time — calls, total, mean and share — like
 * `torch.profiler`'s `key_averages().table()`.
 */
import { gpuDevices, synchronize } from '../../engine';
import { PROFILE_MIME, type MimeBundle, type ProfileData, type ProfileRow } from '../protocol';
import { GpuTimer, opName, timestampBackend, type DispatchTime } from './gpu-timer';
import { formatSeconds, isEmulatedAdapter } from './timing';

export interface ProfileOptions {
  /** Rows shown (default 15). */
  top?: number;
  /** Group by the full kernel variant instead of the op (default false). */
  byKernel?: boolean;
}

/** Sums dispatch times by op, largest total first. */
export function aggregateTimes(
  times: readonly DispatchTime[],
  options: ProfileOptions = {},
): ProfileRow[] {
  const groups = new Map<string, { calls: number; ns: number }>();
  for (const t of times) {
    const key = options.byKernel ? t.label : opName(t.label);
    const g = groups.get(key) ?? { calls: 0, ns: 0 };
    g.calls++;
    g.ns += t.ns;
    groups.set(key, g);
  }
  const total = times.reduce((s, t) => s + t.ns, 0);
  return [...groups.entries()]
    .map(([op, g]) => ({
      op,
      calls: g.calls,
      totalMs: g.ns / 1e6,
      meanUs: g.ns / g.calls / 1e3,
      percent: total > 0 ? (100 * g.ns) / total : 0,
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
    const backend = timestampBackend(device);
    return backend ? [{ device, backend, timer: new GpuTimer(backend.device) }] : [];
  });
  const unsupported = gpuDevices()
    .filter((d) => !timed.some((t) => t.device === d))
    .map((d) => d.name);
  for (const t of timed) t.backend.context.queue.profiler = t.timer;
  const start = performance.now();
  try {
    await fn();
  } finally {
    // Everything fn queued is submitted (and its queries resolved) before timing stops.
    await synchronize().catch(() => {});
    for (const t of timed) t.backend.context.queue.profiler = null;
  }
  const wallMs = performance.now() - start;
  const profiles: ProfileData[] = [];
  for (const t of timed) {
    const times = await t.timer.collect();
    const note: string[] = [];
    if (t.timer.untimed > 0) note.push(`${t.timer.untimed} dispatches were not timed.`);
    if (isEmulatedAdapter(t.device.info.label)) {
      note.push('This adapter is a CPU emulation (SwiftShader): its kernel times are CPU times.');
    }
    const data: ProfileData = {
      device: t.device.name,
      adapter: t.device.info.label,
      wallMs,
      gpuMs: times.reduce((s, x) => s + x.ns, 0) / 1e6,
      dispatches: times.length,
      rows: aggregateTimes(times, options),
    };
    if (note.length > 0) data.note = note.join(' ');
    profiles.push(data);
  }
  return { profiles, unsupported };
}
