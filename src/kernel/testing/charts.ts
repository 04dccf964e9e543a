/** Reading the automatic loop chart in tests: a series' points, and points against counted values. */
import { expect } from 'vitest';
import type { ChartData } from '../protocol';

/** The points of the series called `name` in any of the chart's panels (throws if none). */
export function series(chart: ChartData, name: string): [number, number][] {
  const found = chart.panels.flatMap((p) => p.series).find((s) => s.name === name);
  if (!found) throw new Error(`no series ${name} in ${JSON.stringify(chart)}`);
  return found.points;
}

/** The points are (1, expected[0]), (2, expected[1]), …, the values to 5 decimals. */
export function expectPoints(points: [number, number][], expected: number[]): void {
  expect(points.map(([x]) => x)).toEqual(expected.map((_, i) => i + 1));
  points.forEach(([, y], i) => expect(y).toBeCloseTo(expected[i], 5));
}
