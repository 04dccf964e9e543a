import { describe, expect, it } from 'vitest';
import { CHART_MIME, type ChartData } from '../protocol';
import { Chart, isUnitMetric, MAX_POINTS_PER_SERIES, metricOf } from './chart';
import { metricChart } from './plot-metric';
import { rng } from '../../engine/testing/harness';

describe('Chart data', () => {
  it('groups logged values by metric, one panel each, accuracies on [0, 1]', () => {
    const random = rng(7);
    const chart = new Chart({ title: 'fit' });
    const rows = Array.from({ length: 6 }, (_, i) => ({
      epoch: i + 1,
      train_loss: 2 * random(),
      train_acc: random(),
      val_loss: 2 * random(),
      val_acc: random(),
    }));
    for (const row of rows) chart.log(row);
    const data = chart.toData();
    expect(data.title).toBe('fit');
    expect(data.panels.map((p) => p.title)).toEqual(['loss', 'acc']);
    const [loss, acc] = data.panels;
    expect(loss.series.map((s) => s.name)).toEqual(['train_loss', 'val_loss']);
    expect(loss.yMin).toBeUndefined();
    expect([acc.yMin, acc.yMax]).toEqual([0, 1]);
    expect(loss.xLabel).toBe('epoch');
    // Every point is the logged value at its epoch, nothing else.
    for (const panel of data.panels) {
      for (const s of panel.series) {
        expect(s.points).toEqual(rows.map((r) => [r.epoch, r[s.name as keyof typeof r]]));
      }
    }
    expect(chart.points).toBe(6);
  });

  it('uses the log count as x when no epoch or step is given, and skips non-numbers', () => {
    const chart = new Chart();
    chart.log({ loss: 3, note: 'x' });
    chart.log({ loss: 2, bad: Number.NaN });
    chart.log({ loss: 1 });
    const data = chart.toData();
    expect(data.panels).toHaveLength(1);
    expect(data.panels[0].series[0].points).toEqual([
      [1, 3],
      [2, 2],
      [3, 1],
    ]);
    expect(data.panels[0].xLabel).toBe('step');
  });

  it('detail series are drawn but not counted as points', () => {
    const chart = new Chart();
    for (let s = 1; s <= 20; s++)
      chart.add('train_loss (steps)', s / 10, 1 / s, { panel: 'loss', detail: true });
    chart.log({ train_loss: 0.5 }, { x: 1 });
    chart.log({ train_loss: 0.25 }, { x: 2 });
    expect(chart.points).toBe(2);
    const series = chart.toData().panels[0].series;
    expect(series.map((s) => [s.name, s.detail ?? false, s.points.length])).toEqual([
      ['train_loss (steps)', true, 20],
      ['train_loss', false, 2],
    ]);
  });

  it('keeps long series bounded, with their first and last points', () => {
    const chart = new Chart();
    const n = MAX_POINTS_PER_SERIES * 3 + 17;
    for (let i = 0; i < n; i++) chart.add('loss', i, Math.sin(i));
    const points = chart.toData().panels[0].series[0].points;
    expect(points.length).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    expect(points.length).toBeGreaterThan(MAX_POINTS_PER_SERIES / 2);
    expect(points[0]).toEqual([0, 0]);
    expect(points[points.length - 1]).toEqual([n - 1, Math.sin(n - 1)]);
    for (let i = 1; i < points.length; i++) expect(points[i][0]).toBeGreaterThan(points[i - 1][0]);
    for (const [x, y] of points) expect(y).toBe(Math.sin(x));
  });

  it('carries a text fallback with the last values', () => {
    const chart = new Chart();
    chart.log({ epoch: 1, loss: 0.91234 });
    chart.log({ epoch: 2, loss: 0.51234 });
    const bundle = chart.toBundle();
    expect((bundle[CHART_MIME] as ChartData).panels).toHaveLength(1);
    expect(bundle['text/plain']).toBe('[loss] loss=0.5123 (epoch 2, 2 points)');
  });

  it('names metrics as their phase-free names', () => {
    expect(metricOf('val_acc')).toBe('acc');
    expect(metricOf('train_loss')).toBe('loss');
    expect(metricOf('val_sparse_categorical_accuracy')).toBe('sparse_categorical_accuracy');
    expect(isUnitMetric('sparse_categorical_accuracy')).toBe(true);
    expect(isUnitMetric('acc')).toBe(true);
    expect(isUnitMetric('loss')).toBe(false);
    expect(isUnitMetric('mae')).toBe(false);
  });
});

describe('plotMetric', () => {
  it('draws train and val curves of torchkeras history rows', () => {
    const random = rng(3);
    const rows = [1, 2, 3].map((epoch) => ({
      epoch,
      train_loss: random(),
      train_acc: random(),
      lr: 0.01,
      val_loss: random(),
      val_acc: random(),
    }));
    const data = metricChart(rows, 'loss').toData();
    expect(data.title).toBe('Training and validation loss');
    expect(data.panels).toHaveLength(1);
    const [train, val] = data.panels[0].series;
    expect(train.name).toBe('train_loss');
    expect(train.dashed).toBe(true);
    expect(train.points).toEqual(rows.map((r) => [r.epoch, r.train_loss]));
    expect(val.points).toEqual(rows.map((r) => [r.epoch, r.val_loss]));
    expect(data.panels[0].xLabel).toBe('Epochs');
    expect(metricChart(rows, 'acc').toData().panels[0]).toMatchObject({ yMin: 0, yMax: 1 });
  });

  it('reads a Keras History (epochs counted from 0 there) and a dict of lists', () => {
    const history = {
      epoch: [0, 1, 2, 3],
      history: {
        loss: [1.2, 0.8, 0.6, 0.5],
        val_loss: [1.1, 0.9, 0.7, 0.72],
        accuracy: [0.5, 0.7, 0.8, 0.85],
      },
    };
    const data = metricChart(history, 'loss').toData();
    expect(data.panels[0].series.map((s) => s.name)).toEqual(['loss', 'val_loss']);
    expect(data.panels[0].series[1].points).toEqual([
      [1, 1.1],
      [2, 0.9],
      [3, 0.7],
      [4, 0.72],
    ]);
    const dict = metricChart({ loss: [3, 2], val_loss: [4, 1] }, 'loss').toData();
    expect(dict.panels[0].series[0].points).toEqual([
      [1, 3],
      [2, 2],
    ]);
  });

  it('says which metrics exist when asked for a missing one', () => {
    expect(() => metricChart([{ epoch: 1, train_loss: 1 }], 'auc')).toThrow(/epoch, train_loss/);
  });
});
