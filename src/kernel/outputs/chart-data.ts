/**
 * Facts about chart data that the kernel and the page both need: which series a chart draws,
 * how many points it counts (`data-points`: the longest non-detail series), and whether a
 * value really is chart data (outputs come from files too).
 */
import type { ChartData } from '../protocol';

export function chartSeriesNames(data: ChartData): string[] {
  return data.panels.flatMap((p) => p.series.map((s) => s.name));
}

export function chartPoints(data: ChartData): number {
  let most = 0;
  for (const panel of data.panels) {
    for (const s of panel.series) if (!s.detail) most = Math.max(most, s.points.length);
  }
  return most;
}

export function isChartData(value: unknown): value is ChartData {
  if (typeof value !== 'object' || value === null) return false;
  const panels = (value as { panels?: unknown }).panels;
  return (
    Array.isArray(panels) &&
    panels.every(
      (p) =>
        typeof p === 'object' &&
        p !== null &&
        Array.isArray((p as { series?: unknown }).series) &&
        ((p as { series: unknown[] }).series as unknown[]).every(
          (s) =>
            typeof s === 'object' &&
            s !== null &&
            typeof (s as { name?: unknown }).name === 'string' &&
            Array.isArray((s as { points?: unknown }).points),
        ),
    )
  );
}
