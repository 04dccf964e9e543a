import { afterEach, describe, expect, it } from 'vitest';
import { cpu } from '../../engine';
import { DataLoader, TensorDataset } from '../../engine/data';
import { AccuracyCore } from '../../engine/metrics';
import { CrossEntropyLoss, Linear } from '../../engine/nn';
import { fromHost } from '../../engine/ops/creation';
import { SGD } from '../../engine/optim';
import { manualSeed } from '../../engine/random';
import { rng } from '../../engine/testing/harness';
import { fitLoop, setDefaultObservers, setTrainingOutput, torchTask } from '../../engine/training';
import { KernelSession } from '../session';
import {
  CHART_MIME,
  PROGRESS_MIME,
  type ChartData,
  type CellOutput,
  type MimeBundle,
  type ProgressData,
  type WorkerEvent,
} from '../protocol';
import { Chart } from './chart';
import { createFitObserver, type FitOutputs } from './fit-observer';
import type { LiveOutput } from './live-display';

afterEach(() => {
  setDefaultObservers(null);
  setTrainingOutput(null);
});

/** Two separable blobs in 2-D. */
function blobs(n: number, seed: number): TensorDataset {
  const random = rng(seed);
  const x = new Float32Array(2 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const label = i % 2;
    x[2 * i] = (label ? 1 : -1) + 0.8 * (random() - 0.5);
    x[2 * i + 1] = (label ? 1 : -1) + 0.8 * (random() - 0.5);
    y[i] = label;
  }
  return new TensorDataset(
    fromHost(x, [n, 2], { device: cpu() }),
    fromHost(y, [n], { device: cpu() }),
  );
}

function tinyFit(epochs: number, observers = [] as ReturnType<typeof createFitObserver>[]) {
  manualSeed(3);
  const net = new Linear(2, 2);
  const task = torchTask(net, new CrossEntropyLoss(), new SGD(net.parameters(), { lr: 0.5 }), null);
  return fitLoop(task, {
    trainData: new DataLoader(blobs(64, 1), { batchSize: 8, shuffle: true }),
    valData: new DataLoader(blobs(32, 2), { batchSize: 16 }),
    epochs,
    metrics: { acc: new AccuracyCore({ numClasses: 2 }) },
    logInterval: 2,
    observers,
  });
}

describe('fit observer', () => {
  it('shows one chart and two bars, and the chart holds every history value at its epoch', async () => {
    const shown: LiveOutput[] = [];
    let outputs: FitOutputs | null = null;
    const observer = createFitObserver((v) => shown.push(v), { onOutputs: (o) => (outputs = o) });
    const { history } = await tinyFit(4, [observer]);
    expect(shown).toHaveLength(3);
    expect(shown.filter((v) => v instanceof Chart)).toHaveLength(1);
    const { chart, epochs, steps } = outputs as unknown as FitOutputs;
    const data = chart.toData();
    expect(data.panels.map((p) => p.title)).toEqual(['loss', 'acc']);
    expect([data.panels[1].yMin, data.panels[1].yMax]).toEqual([0, 1]);
    expect([data.panels[0].xMin, data.panels[0].xMax]).toEqual([0, 4]);
    for (const panel of data.panels) {
      for (const s of panel.series.filter((x) => !x.detail)) {
        expect(s.points).toEqual(history.map((row) => [row.epoch, row[s.name]]));
      }
    }
    expect(chart.points).toBe(4);
    // The running training loss, read every 2 of the 8 steps: 4 points per epoch inside it.
    const detail = data.panels[0].series.find((s) => s.detail);
    expect(detail?.name).toBe('train_loss (steps)');
    expect(detail?.points.map(([x]) => x)).toEqual(
      [1, 2, 3, 4].flatMap((e) => [0.25, 0.5, 0.75, 1].map((f) => e - 1 + f)),
    );
    // The last running value of an epoch is that epoch's train_loss.
    history.forEach((row, i) =>
      expect(detail?.points[4 * i + 3][1]).toBeCloseTo(row.train_loss, 6),
    );
    expect(epochs.toData()).toMatchObject({ value: 4, max: 4, done: true });
    expect(steps.toData()).toMatchObject({ value: 2, max: 2, desc: 'val', done: true });
  });
});

describe('a fit in a cell', () => {
  it('leaves one chart and two bars, redrawn a bounded number of times, ending at the last epoch', async () => {
    const events: WorkerEvent[] = [];
    let resolveDone: () => void = () => {};
    const done = new Promise<void>((r) => (resolveDone = r));
    const session = new KernelSession(
      (e) => {
        events.push(e);
        if (e.type === 'done') resolveDone();
      },
      async () => ({
        info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
        globals: { tinyFit: (epochs: number) => tinyFit(epochs) },
      }),
    );
    session.handle({ type: 'init', params: {}, interruptFlag: null });
    session.handle({
      type: 'execute',
      cellId: 'c1',
      code: 'const { history } = await tinyFit(10);\nprint(history.length)',
      executionCount: 1,
    });
    await done;
    const outputs: CellOutput[] = events.flatMap((e) => (e.type === 'output' ? e.outputs : []));
    const displays = outputs.filter(
      (o): o is Extract<CellOutput, { kind: 'display' }> => o.kind === 'display',
    );
    expect(displays.map((d) => Object.keys(d.data).find((k) => k !== 'text/plain'))).toEqual([
      PROGRESS_MIME,
      PROGRESS_MIME,
      CHART_MIME,
    ]);
    expect(
      outputs
        .filter((o) => o.kind === 'stream')
        .map((o) => (o as { text: string }).text)
        .join(''),
    ).toContain('10\n');
    // Apply the updates as the page does: the newest data per display id wins.
    const latest = new Map<string, MimeBundle>(displays.map((d) => [d.displayId ?? '', d.data]));
    const updates = events.filter((e) => e.type === 'update-display');
    for (const u of updates) if (u.type === 'update-display') latest.set(u.displayId, u.data);
    const chartId = displays[2].displayId ?? '';
    const chart = latest.get(chartId)?.[CHART_MIME] as ChartData;
    const lossPanel = chart.panels.find((p) => p.title === 'loss');
    expect(lossPanel?.series.find((s) => s.name === 'val_loss')?.points.map(([x]) => x)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const epochBar = latest.get(displays[0].displayId ?? '')?.[PROGRESS_MIME] as ProgressData;
    expect(epochBar).toMatchObject({ value: 10, max: 10, done: true });
    // Throttled: far fewer redraws than the 10 epochs × 12 steps of events.
    const chartUpdates = updates.filter(
      (u) => u.type === 'update-display' && u.displayId === chartId,
    );
    expect(chartUpdates.length).toBeLessThan(60);
  });
});
