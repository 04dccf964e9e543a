/**
 * Charts a cell can build and log into: named series of [x, y] points grouped into panels (one
 * per metric: `train_loss` and `val_loss` share the loss panel, accuracies get a 0–1 axis),
 * drawn by the page with Recharts and redrawn live, throttled, while a loop logs.
 */
import { CHART_MIME, type ChartData, type ChartPanelData, type MimeBundle } from '../protocol';
import { chartPoints } from './chart-data';
import { formatG } from './progress-format';
import {
  LiveHandles,
  showAutomatically,
  type DisplayHandle,
  type LiveOutput,
} from './live-display';

/** Points kept per series; past it every other older point is dropped (the shape survives). */
export const MAX_POINTS_PER_SERIES = 2000;

const PHASE_PREFIX = /^(train|training|val|valid|validation|test)_/;
const X_KEYS = ['epoch', 'step', 'x', 'iteration', 'iter'];

/** The metric a logged name belongs to: `val_acc` → `acc`, `loss` → `loss`. */
export function metricOf(name: string): string {
  return name.replace(PHASE_PREFIX, '');
}

/** Metrics whose values live on [0, 1], so their axis is fixed there. */
export function isUnitMetric(metric: string): boolean {
  return /(^|_)(acc|accuracy|auc|precision|recall|f1|iou|top\d*|top_?k.*)($|_)/i.test(metric);
}

export interface ChartOptions {
  title?: string;
  /** Label of the x axis (default: 'epoch' when logs carry an epoch, else 'step'). */
  xLabel?: string;
  /** 'bar' draws categories; 'line' (default) draws series over x. */
  kind?: 'line' | 'bar';
  /** Fixed y ranges by panel (metric) name, e.g. `{ loss: [0, 3] }`. */
  yRange?: Record<string, [number, number]>;
  /** Fixed x range for every panel (a fit knows its epochs ahead). */
  xRange?: [number, number];
}

export interface LogOptions {
  /** The x of these values (default: their `epoch`/`step` key, else the count of logs). */
  x?: number;
  /** The panel to put them in (default: one panel per metric). */
  panel?: string;
  /** Thin line without markers, not counted as a chart point (per-step detail). */
  detail?: boolean;
  dashed?: boolean;
}

interface Series {
  name: string;
  points: [number, number][];
  detail: boolean;
  dashed: boolean;
}

interface Panel {
  title: string;
  yLabel?: string;
  categories?: string[];
  series: Map<string, Series>;
}

/** Keeps the first and last point and every other one between, when a series grows too long. */
function decimate(points: [number, number][]): [number, number][] {
  if (points.length <= MAX_POINTS_PER_SERIES) return points;
  const last = points[points.length - 1];
  const kept = points.filter((_, i) => i % 2 === 0);
  if (kept[kept.length - 1] !== last) kept.push(last);
  return kept;
}

export class Chart implements LiveOutput {
  readonly options: ChartOptions;
  private readonly panels = new Map<string, Panel>();
  private readonly live = new LiveHandles();
  private logs = 0;
  private sawEpoch = false;

  constructor(options: ChartOptions = {}) {
    this.options = { ...options };
  }

  /** The id of the chart's display, once shown. */
  get id(): string | null {
    return this.live.id;
  }

  /**
   * Appends one value per key (`chart.log({ loss: 0.5, acc: 0.8 })`); an `epoch` or `step` key
   * is the x of the others. Shows the chart if it is not shown yet.
   */
  log(values: Record<string, unknown>, options: LogOptions = {}): this {
    this.logs++;
    let x = options.x;
    if (x === undefined) {
      const key = X_KEYS.find((k) => typeof values[k] === 'number');
      if (key === 'epoch') this.sawEpoch = true;
      x = key ? (values[key] as number) : this.logs;
    }
    for (const [name, value] of Object.entries(values)) {
      if (options.x === undefined && X_KEYS.includes(name)) continue;
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      this.point(options.panel ?? metricOf(name), name, x, value, options);
    }
    this.changed();
    return this;
  }

  /** Appends one point to one series. */
  add(series: string, x: number, y: number, options: Omit<LogOptions, 'x'> = {}): this {
    this.point(options.panel ?? metricOf(series), series, x, y, options);
    this.changed();
    return this;
  }

  /**
   * Sets one series' value at `x`: replaces its last point when that has the same x (a running
   * value read again within an epoch), else appends.
   */
  put(series: string, x: number, y: number, options: Omit<LogOptions, 'x'> = {}): this {
    const points = this.panels.get(options.panel ?? metricOf(series))?.series.get(series)?.points;
    const last = points?.[points.length - 1];
    if (last && last[0] === x) last[1] = y;
    else this.point(options.panel ?? metricOf(series), series, x, y, options);
    this.changed();
    return this;
  }

  /** Replaces a whole series (bar charts: one value per category). */
  setSeries(
    series: string,
    points: [number, number][],
    options: Omit<LogOptions, 'x'> & { categories?: string[]; yLabel?: string } = {},
  ): this {
    const panel = this.panelFor(options.panel ?? metricOf(series));
    if (options.categories) panel.categories = [...options.categories];
    if (options.yLabel) panel.yLabel = options.yLabel;
    panel.series.set(series, {
      name: series,
      points: decimate(points.map(([x, y]) => [x, y] as [number, number])),
      detail: options.detail ?? false,
      dashed: options.dashed ?? false,
    });
    this.changed(false);
    return this;
  }

  /** Number of points drawn, as `data-points` counts them (longest non-detail series). */
  get points(): number {
    return chartPoints(this.toData());
  }

  toData(): ChartData {
    const kind = this.options.kind ?? 'line';
    const xLabel =
      this.options.xLabel ?? (kind === 'bar' ? undefined : this.sawEpoch ? 'epoch' : 'step');
    const panels: ChartPanelData[] = [...this.panels.entries()].map(([key, panel]) => {
      const fixed = this.options.yRange?.[key] ?? (isUnitMetric(key) ? [0, 1] : undefined);
      const data: ChartPanelData = {
        title: panel.title,
        kind,
        series: [...panel.series.values()].map((s) => ({
          name: s.name,
          points: s.points.map((p) => [p[0], p[1]] as [number, number]),
          ...(s.detail ? { detail: true } : {}),
          ...(s.dashed ? { dashed: true } : {}),
        })),
      };
      if (xLabel) data.xLabel = xLabel;
      if (panel.yLabel) data.yLabel = panel.yLabel;
      if (panel.categories) data.categories = [...panel.categories];
      if (fixed) [data.yMin, data.yMax] = fixed;
      if (this.options.xRange) [data.xMin, data.xMax] = this.options.xRange;
      return data;
    });
    return this.options.title ? { title: this.options.title, panels } : { panels };
  }

  toBundle(): MimeBundle {
    const data = this.toData();
    return { 'text/plain': chartText(data), [CHART_MIME]: data };
  }

  attach(handle: DisplayHandle): void {
    this.live.add(handle);
  }

  /** Sends the newest state now (end of a loop). */
  flush(): void {
    this.live.flush();
  }

  private point(panelKey: string, name: string, x: number, y: number, options: LogOptions): void {
    const panel = this.panelFor(panelKey);
    let series = panel.series.get(name);
    if (!series) {
      series = {
        name,
        points: [],
        detail: options.detail ?? false,
        dashed: options.dashed ?? false,
      };
      panel.series.set(name, series);
    }
    series.points.push([x, y]);
    if (series.points.length > MAX_POINTS_PER_SERIES) series.points = decimate(series.points);
  }

  private panelFor(key: string): Panel {
    let panel = this.panels.get(key);
    if (!panel) {
      panel = { title: key, series: new Map() };
      this.panels.set(key, panel);
    }
    return panel;
  }

  /** Logging shows a chart not shown yet (a loop's chart); building one with setSeries does not. */
  private changed(show = true): void {
    if (show && !this.live.displayed) showAutomatically(this);
    this.live.changed(this);
  }
}

/** The chart as text (Jupyter without our renderer, the notebook's text view): last values. */
export function chartText(data: ChartData): string {
  const lines: string[] = [];
  if (data.title) lines.push(data.title);
  for (const panel of data.panels) {
    const parts = panel.series.map((s) => {
      const last = s.points[s.points.length - 1];
      if (!last) return `${s.name}: no points`;
      if (panel.kind === 'bar' && panel.categories) {
        const values = s.points.map(([x, y]) => `${panel.categories?.[x] ?? x}=${formatG(y, 4)}`);
        return `${s.name}: ${values.join(', ')}`;
      }
      const at = panel.xLabel
        ? `${panel.xLabel} ${formatG(last[0], 4)}`
        : `x=${formatG(last[0], 4)}`;
      return `${s.name}=${formatG(last[1], 4)} (${at}, ${s.points.length} points)`;
    });
    lines.push(`[${panel.title ?? 'chart'}] ${parts.join('; ')}`);
  }
  return lines.length > 0 ? lines.join('\n') : '[empty chart]';
}
