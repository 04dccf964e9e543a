/**
 * A device benchmark's results and how they read: GFLOPS, % of the measured FMA peak, GPU-vs-CPU
 * ratios, the table and its Markdown. No engine imports, so the page (the timing panel) can
 * format a report without loading the engine.
 */

/** One case on one device: the median of its timed runs. */
export interface Measurement {
  medianSeconds: number;
  minSeconds: number;
  maxSeconds: number;
  runs: number;
}

/** One side of a row: its measurement, or why there is none. */
export type Side = Measurement | { error: string } | null;

export interface BenchmarkRow {
  /** `matmul m=1024 k=1024 n=1024`, `cnn-step batch=128`. */
  case: string;
  /** Floating-point operations of one run (0: not meaningful, a training step). */
  flops: number;
  gpu: Side;
  cpu: Side;
  /**
   * The FMA peak timed right before and after this row's GPU side, GFLOPS (a product on a GPU;
   * absent elsewhere): on a shared host the peak moves by tens of percent within minutes.
   */
  peakGflops?: number;
}

export interface DeviceBenchmarkReport {
  /** The adapter's name as the engine reports it. */
  adapter: string;
  /** ISO time of the run. */
  date: string;
  /** The register-only FMA kernel's rate on this adapter, GFLOPS (null: no GPU). */
  peakGflops: number | null;
  /** Why the peak could not be measured on a GPU. */
  peakError?: string;
  rows: BenchmarkRow[];
}

export function measured(side: Side): Measurement | null {
  return side && 'medianSeconds' in side ? side : null;
}

/** Median GFLOPS of a side, or null when it has none (or the case is not a flop count). */
export function gflopsOf(row: BenchmarkRow, side: Side): number | null {
  const m = measured(side);
  return m && row.flops > 0 && m.medianSeconds > 0 ? row.flops / m.medianSeconds / 1e9 : null;
}

/** The peak a row's GPU side is compared with: the one timed beside it, else the report's. */
export function rowPeak(row: BenchmarkRow, reportPeak: number | null): number | null {
  return row.peakGflops ?? reportPeak;
}

/** The GPU's median GFLOPS as a percentage of the measured peak (the row's own, if it has one). */
export function percentOfPeak(row: BenchmarkRow, reportPeak: number | null): number | null {
  const g = gflopsOf(row, row.gpu);
  const peak = rowPeak(row, reportPeak);
  return g !== null && peak ? (100 * g) / peak : null;
}

/** How many times faster the GPU ran than the CPU (their median times' ratio). */
export function gpuOverCpu(row: BenchmarkRow): number | null {
  const gpu = measured(row.gpu);
  const cpu = measured(row.cpu);
  return gpu && cpu && gpu.medianSeconds > 0 ? cpu.medianSeconds / gpu.medianSeconds : null;
}

/** Seconds as the bench writes them: `6.8 ms`, `1.23 s`. */
export function formatTime(seconds: number): string {
  if (seconds >= 1) return `${seconds.toFixed(2)} s`;
  if (seconds >= 1e-3) return `${(seconds * 1e3).toFixed(1)} ms`;
  return `${(seconds * 1e6).toFixed(0)} µs`;
}

function sideText(row: BenchmarkRow, side: Side): string {
  if (side === null) return '—';
  if ('error' in side) return `error: ${side.error}`;
  const g = gflopsOf(row, side);
  const time = `${formatTime(side.medianSeconds)} n=${side.runs}`;
  return g === null ? time : `${time} (${g.toFixed(2)} GFLOPS)`;
}

export const BENCHMARK_COLUMNS = ['case', 'GPU', 'GPU % of peak', 'CPU', 'GPU / CPU'] as const;

/** The results table's cells, one array per row (what the panel shows and Markdown writes). */
export function benchmarkCells(report: DeviceBenchmarkReport): string[][] {
  return report.rows.map((row) => {
    const pct = percentOfPeak(row, report.peakGflops);
    const ratio = gpuOverCpu(row);
    // A peak timed beside the row is named, as the bench's report does ("53% of 6.02").
    const against = row.peakGflops !== undefined ? ` of ${row.peakGflops.toFixed(2)}` : '';
    return [
      row.case,
      sideText(row, row.gpu),
      pct === null ? '—' : `${pct.toFixed(0)}%${against}`,
      sideText(row, row.cpu),
      ratio === null ? '—' : `${ratio.toFixed(1)}×`,
    ];
  });
}

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report as Markdown: a heading line with adapter, date and peak, then the table. */
export function benchmarkMarkdown(report: DeviceBenchmarkReport): string {
  const peak =
    report.peakGflops !== null
      ? `measured FMA peak ${report.peakGflops.toFixed(2)} GFLOPS`
      : `no FMA peak measured${report.peakError ? ` (${report.peakError})` : ''}`;
  const lines = [
    `gpubook device benchmark, ${report.date}. Adapter: **${escapeCell(report.adapter)}**, ${peak}.`,
    'Medians of timed runs after warm-ups; GPU / CPU is how many times faster the GPU ran; a product\'s % of peak is against the peak timed beside it (its GFLOPS after "of").',
    '',
    `| ${BENCHMARK_COLUMNS.join(' | ')} |`,
    `| ${BENCHMARK_COLUMNS.map(() => '---').join(' | ')} |`,
    ...benchmarkCells(report).map((cells) => `| ${cells.map(escapeCell).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}
