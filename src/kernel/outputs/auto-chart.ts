/**
 * The automatic chart of a hand-written training loop: the metric reads a user asks for (Keras's
 * `result()`, torchmetrics' `compute()`), the postfix values of their tqdm bars and the epoch logs
 * they print (`print({"epoch": e, "loss": l})`, one dict or object with a numeric `epoch`) feed
 * ONE live chart per cell, without a helper call. A cell that reads no metric, sets no postfix
 * and prints no epoch log draws nothing; while a fit runs nothing is drawn here (fit draws its own
 * chart).
 *
 * The x axis is the epoch, as a student counts it:
 * - a metric's series gets a new point when it is read after a reset, or read from another
 *   metric object (a fresh copy per epoch); reading it again before a reset redraws the same
 *   point, so a metric read every step still gives one point per epoch (its last value);
 * - a tqdm bar is one pass over the data: the k-th bar with the same description spans epoch
 *   k-1 to k, and a postfix set while it is at step i of n sits at k-1 + i/n (the last one at k);
 * - a printed epoch log sits at the epoch it names.
 */
import type { MetricListener, MetricReadEvent } from '../../engine/metrics';
import type { TrainingObserver } from '../../engine/training';
import type { Tensor } from '../../engine';
import type { OutputSink } from '../output-sink';
import { Chart } from './chart';
import { displayValue, type SinkSource } from './live-display';
import type { ProgressBar } from './progress';

export interface AutoChartSettings {
  /** Draw the automatic chart (default true). */
  enabled: boolean;
  /** Series names as drawn, by the name they would get (`{ train_loss: 'loss' }`). */
  names: Record<string, string>;
}

interface SeriesState {
  x: number;
  /** The metric object last read into the series. */
  metric: object | null;
  /** A read in flight, and the reads waiting behind it. */
  busy: boolean;
  queue: { x: number; tensor: Tensor }[];
}

/** One cell's chart and what its x axis has counted so far. */
class CellChart {
  chart: Chart | null = null;
  fits = 0;
  readonly series = new Map<string, SeriesState>();
  /** Metrics read, and whether each was reset since its last read. */
  readonly resetSinceRead = new WeakMap<object, boolean>();
  readonly bars = new WeakMap<ProgressBar, number>();
  readonly barsByDesc = new Map<string, number>();
  readonly reads = new Set<Promise<void>>();
  /** Names with a series already, in the order reads arrived (panels keep that order). */
  private readonly named = new Set<string>();

  constructor(private readonly sink: OutputSink) {
    sink.beforeClose(async () => {
      while (this.reads.size > 0) await Promise.all([...this.reads]);
      this.chart?.flush();
    });
  }

  /** Shows the chart and gives `name` its series now, while the read's value is on its way. */
  reserve(name: string): Chart {
    if (!this.chart) {
      this.chart = new Chart({ title: 'Training', xLabel: 'epoch' });
      displayValue(this.sink, this.chart);
    }
    if (!this.named.has(name)) {
      this.named.add(name);
      this.chart.setSeries(name, []);
    }
    return this.chart;
  }

  put(name: string, x: number, y: number): void {
    if (Number.isFinite(y)) this.reserve(name).put(name, x, y);
  }
}

function numeric(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export class AutoChart {
  readonly settings: AutoChartSettings = { enabled: true, names: {} };
  private readonly cells = new WeakMap<OutputSink, CellChart>();

  constructor(private readonly target: SinkSource) {}

  /** `autoChart(false)`, `autoChart(true)`, `autoChart({ names: { train_loss: 'loss' } })`. */
  configure(options: boolean | { enabled?: boolean; names?: Record<string, string> }): void {
    if (typeof options === 'boolean') {
      this.settings.enabled = options;
      return;
    }
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(
        'autoChart: give true, false or { enabled, names: { seriesName: shownName } }',
      );
    }
    if (options.enabled !== undefined) this.settings.enabled = Boolean(options.enabled);
    if (options.names !== undefined) {
      const names = options.names as unknown;
      if (typeof names !== 'object' || names === null)
        throw new TypeError('autoChart: names must map series names to the names to show');
      this.settings.names = Object.fromEntries(
        Object.entries(names).map(([k, v]) => [k, String(v)]),
      );
    }
  }

  /** The listener the engine's metric reads go to. */
  readonly metricListener: MetricListener = {
    onRead: (event) => this.onRead(event),
    onReset: (metric) => {
      const cell = this.cell(false);
      if (cell?.resetSinceRead.has(metric)) cell.resetSinceRead.set(metric, true);
    },
  };

  /** An observer for each fit: while one runs, the loop chart stays out of its way. */
  fitObserver(): TrainingObserver {
    let cell: CellChart | null = null;
    return {
      onTrainBegin: () => {
        cell = this.cell(true);
        if (cell) cell.fits++;
      },
      onTrainEnd: () => {
        if (cell) cell.fits--;
        cell = null;
      },
    };
  }

  /** tqdm's `set_postfix` values: one point per numeric value at the bar's epoch position. */
  readonly postfix = (bar: ProgressBar, values: Record<string, unknown>): void => {
    const cell = this.active();
    if (!cell) return;
    let k = cell.bars.get(bar);
    if (k === undefined) {
      const desc = bar.desc ?? '';
      k = (cell.barsByDesc.get(desc) ?? 0) + 1;
      cell.barsByDesc.set(desc, k);
      cell.bars.set(bar, k);
    }
    const position = bar.n + (bar.iterating ? 1 : 0);
    const x = bar.total ? k - 1 + Math.min(1, position / bar.total) : k;
    for (const [key, value] of Object.entries(values)) {
      const y = numeric(value);
      if (y !== null) cell.put(this.shown(key), x, y);
    }
  };

  /**
   * A printed epoch log: a plain object (a Python dict) with a numeric `epoch` and other numeric
   * values puts each of those at x = epoch. Anything else printed is not a log and is ignored.
   */
  readonly epochLog = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    if (Object.getPrototypeOf(value) !== Object.prototype) return;
    const entries = Object.entries(value as Record<string, unknown>);
    const epoch = entries.find(([key]) => key === 'epoch')?.[1];
    if (typeof epoch !== 'number' || !Number.isFinite(epoch)) return;
    const points = entries.filter(
      (entry): entry is [string, number] => entry[0] !== 'epoch' && typeof entry[1] === 'number',
    );
    const cell = points.length > 0 ? this.active() : null;
    if (!cell) return;
    for (const [key, y] of points) cell.put(this.shown(key), epoch, y);
  };

  private onRead(event: MetricReadEvent): void {
    const cell = this.active();
    if (!cell) return;
    const phase = event.training === null ? '' : event.training ? 'train_' : 'val_';
    const name = this.shown(event.name ?? `${phase}${event.kind}`);
    let state = cell.series.get(name);
    if (!state) {
      state = { x: 0, metric: null, busy: false, queue: [] };
      cell.series.set(name, state);
    }
    const fresh =
      state.x === 0 || state.metric !== event.metric || cell.resetSinceRead.get(event.metric);
    if (fresh) state.x++;
    state.metric = event.metric;
    cell.resetSinceRead.set(event.metric, false);
    let tensor: Tensor;
    try {
      tensor = event.value();
    } catch {
      return; // nothing to read yet: the user's own read says why
    }
    cell.reserve(name);
    const queue = state.queue;
    const last = queue[queue.length - 1];
    // Reads wait in order behind the one in flight; a newer read at the same x replaces a waiting
    // one (a loop may read faster than the device answers), an earlier x keeps its last value.
    if (last && last.x === state.x) {
      last.tensor.dispose();
      last.tensor = tensor;
    } else queue.push({ x: state.x, tensor });
    if (!state.busy) this.drain(cell, name, state);
  }

  private drain(cell: CellChart, name: string, state: SeriesState): void {
    const item = state.queue.shift();
    if (!item) return;
    state.busy = true;
    const done = item.tensor
      .data()
      .then(
        (values) => cell.put(name, item.x, values[0]),
        () => {},
      )
      .finally(() => {
        item.tensor.dispose();
        cell.reads.delete(done);
        state.busy = false;
        this.drain(cell, name, state);
      });
    cell.reads.add(done);
  }

  private shown(name: string): string {
    return this.settings.names[name] ?? name;
  }

  /** The running cell's chart state, when the chart is on and no fit runs. */
  private active(): CellChart | null {
    if (!this.settings.enabled) return null;
    const cell = this.cell(true);
    return cell && cell.fits === 0 ? cell : null;
  }

  private cell(create: boolean): CellChart | null {
    const sink = this.target.current();
    if (!sink) return null;
    let cell = this.cells.get(sink);
    if (!cell && create) {
      cell = new CellChart(sink);
      this.cells.set(sink, cell);
    }
    return cell ?? null;
  }
}

let epochLogListener: ((value: unknown) => void) | null = null;

/** Installs (or, with null, removes) where printed values go to be read as epoch logs. */
export function setEpochLogListener(listener: ((value: unknown) => void) | null): void {
  epochLogListener = listener;
}

/** `print` of one value, in either language: it may be an epoch log for the loop chart. */
export function reportPrinted(value: unknown): void {
  epochLogListener?.(value);
}
