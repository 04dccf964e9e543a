/**
 * `plotMetric(history, 'loss')`: the chapter's plot_metric — train and validation curves of one
 * metric by epoch — from torchkeras history rows, a Keras History, or a dict of lists.
 */
import { Chart } from './chart';

type Rows = readonly Record<string, unknown>[];
type Columns = Record<string, readonly unknown[]>;

function isRows(value: unknown): value is Rows {
  return Array.isArray(value) && value.every((r) => typeof r === 'object' && r !== null);
}

/** Column view of any history form: rows, `{ history: {...}, epoch: [...] }`, or `{ loss: [...] }`. */
export function historyColumns(history: unknown): { columns: Columns; epochs: number[] } {
  if (isRows(history)) {
    const keys = [...new Set(history.flatMap((r) => Object.keys(r)))];
    const columns: Columns = Object.fromEntries(keys.map((k) => [k, history.map((r) => r[k])]));
    const epochs = history.map((r, i) => (typeof r.epoch === 'number' ? r.epoch : i + 1));
    return { columns, epochs };
  }
  if (typeof history === 'object' && history !== null) {
    const h = history as { history?: unknown; epoch?: unknown };
    const inner = typeof h.history === 'object' && h.history !== null ? h.history : history;
    const columns = Object.fromEntries(
      Object.entries(inner as Record<string, unknown>).filter(([, v]) => Array.isArray(v)),
    ) as Columns;
    const length = Math.max(0, ...Object.values(columns).map((c) => c.length));
    // Keras numbers epochs from 0 in History.epoch; the chapter's plot counts from 1.
    const epochs =
      Array.isArray(h.epoch) && h.history !== undefined
        ? (h.epoch as unknown[]).map((e, i) => (typeof e === 'number' ? e + 1 : i + 1))
        : Array.isArray(columns.epoch)
          ? columns.epoch.map((e, i) => (typeof e === 'number' ? e : i + 1))
          : Array.from({ length }, (_, i) => i + 1);
    return { columns, epochs };
  }
  throw new TypeError('plotMetric: give the history that fit returned');
}

/** The chart of `metric` (train: `metric` or `train_metric`; validation: `val_metric`). */
export function metricChart(history: unknown, metric: string): Chart {
  const { columns, epochs } = historyColumns(history);
  const trainKey = [metric, `train_${metric}`].find((k) => k in columns && k !== `val_${metric}`);
  const valKey = metric.startsWith('val_') ? undefined : `val_${metric}`;
  if (!trainKey && !(valKey && valKey in columns)) {
    const known = Object.keys(columns).join(', ');
    throw new Error(`plotMetric: no '${metric}' in the history (it has ${known})`);
  }
  const chart = new Chart({ title: `Training and validation ${metric}`, xLabel: 'Epochs' });
  const series = (key: string, dashed: boolean) => {
    const points = columns[key]
      .map((v, i) => [epochs[i], v] as [number, unknown])
      .filter((p): p is [number, number] => typeof p[1] === 'number' && Number.isFinite(p[1]));
    chart.setSeries(key, points, { panel: metric, dashed, yLabel: metric });
  };
  if (trainKey) series(trainKey, true);
  if (valKey && valKey in columns) series(valKey, false);
  return chart;
}
