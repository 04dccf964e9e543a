import { afterAll, describe, expect, it } from 'vitest';
import * as api from '../../api';
import { cpu, ops, type Tensor } from '../../engine';
import { setMetricListener } from '../../engine/metrics';
import { rng } from '../../engine/testing/harness';
import { setDefaultObservers, setTrainingOutput } from '../../engine/training';
import { CHART_MIME, type CellOutput, type ChartData, type MimeBundle } from '../protocol';
import { startTestSession } from '../testing/session-harness';
import { expectPoints, series } from '../testing/charts';
import { setPostfixListener } from './progress';

afterAll(() => {
  setMetricListener(null);
  setPostfixListener(null);
  setDefaultObservers(null);
  setTrainingOutput(null);
});

const device = cpu();
const EPOCHS = 3;
const BATCHES = 4;
const BATCH = 8;
const CLASSES = 5;

interface Batch {
  loss: Tensor;
  labels: Tensor;
  scores: Tensor;
}

/**
 * Random per-batch losses, labels and scores, with the per-epoch mean loss and accuracy counted
 * independently here in float64 (what the chart must show at each epoch).
 */
function problem(seed: number) {
  const random = rng(seed);
  const data: Batch[][] = [];
  const meanLoss: number[] = [];
  const accuracy: number[] = [];
  /** The first batch alone, per epoch: what the validation reads see. */
  const firstLoss: number[] = [];
  const firstAccuracy: number[] = [];
  for (let e = 0; e < EPOCHS; e++) {
    const batches: Batch[] = [];
    let lossSum = 0;
    let correct = 0;
    for (let b = 0; b < BATCHES; b++) {
      const losses = Array.from({ length: BATCH }, () => 3 * random());
      const labels = Array.from({ length: BATCH }, () => Math.floor(random() * CLASSES));
      const scores = Array.from({ length: BATCH * CLASSES }, () => random() - 0.5);
      const batchLoss = losses.reduce((a, v) => a + v, 0);
      let batchCorrect = 0;
      for (let i = 0; i < BATCH; i++) {
        const row = scores.slice(i * CLASSES, (i + 1) * CLASSES);
        if (row.indexOf(Math.max(...row)) === labels[i]) batchCorrect++;
      }
      if (b === 0) {
        firstLoss.push(batchLoss / BATCH);
        firstAccuracy.push(batchCorrect / BATCH);
      }
      lossSum += batchLoss;
      correct += batchCorrect;
      batches.push({
        loss: ops.fromHost(Float32Array.from(losses), [BATCH], { device }).keep(),
        labels: ops.fromHost(Int32Array.from(labels), [BATCH], { device }).keep(),
        scores: ops.fromHost(Float32Array.from(scores), [BATCH, CLASSES], { device }).keep(),
      });
    }
    data.push(batches);
    meanLoss.push(lossSum / (BATCHES * BATCH));
    accuracy.push(correct / (BATCHES * BATCH));
  }
  return { data, meanLoss, accuracy, firstLoss, firstAccuracy };
}

function startSession(globals: Record<string, unknown>) {
  const kernel = startTestSession(async () => ({
    info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
    globals: { ...api, ...globals },
    attachOutput: (write) => setTrainingOutput(write),
  }));
  /** The cell's charts as the page ends up showing them (the newest update per display wins). */
  const chartsOf = (cellId: string): ChartData[] => {
    const outputs: CellOutput[] = kernel.outputsOf(cellId);
    const displays = outputs.filter(
      (o): o is Extract<CellOutput, { kind: 'display' }> =>
        o.kind === 'display' && CHART_MIME in o.data,
    );
    const latest = new Map<string, MimeBundle>(displays.map((d) => [d.displayId ?? '', d.data]));
    for (const e of kernel.events) {
      if (e.type === 'update-display' && latest.has(e.displayId)) latest.set(e.displayId, e.data);
    }
    return [...latest.values()].map((d) => d[CHART_MIME] as ChartData);
  };
  const run = async (code: string) => {
    const { cellId, done } = kernel.run(code);
    const event = await done;
    const errors = kernel.outputsOf(cellId).filter((o) => o.kind === 'error');
    expect(errors).toEqual([]);
    expect(event.status).toBe('ok');
    return chartsOf(cellId);
  };
  return { run };
}

const KERAS_LOOP = (readEveryStep: boolean) => `
const { metrics } = tf.keras;
const trainLoss = new metrics.Mean({ name: 'train_loss' });
const trainAcc = new metrics.SparseCategoricalAccuracy({ name: 'train_accuracy' });
const validLoss = new metrics.Mean({ name: 'valid_loss' });
for (let epoch = 1; epoch <= data.length; epoch++) {
  for (const { loss, labels, scores } of data[epoch - 1]) {
    trainLoss.updateState(loss);
    trainAcc.updateState(labels, scores);
    ${readEveryStep ? 'trainLoss.result(); trainAcc.result();' : ''}
  }
  validLoss.updateState(data[epoch - 1][0].loss);
  print(\`Epoch=\${epoch},Loss:\${(await trainLoss.result().item()).toFixed(4)},\` +
    \`Accuracy:\${(await trainAcc.result().item()).toFixed(4)},\` +
    \`Valid Loss:\${(await validLoss.result().item()).toFixed(4)}\`);
  trainLoss.resetStates();
  trainAcc.resetStates();
  validLoss.resetStates();
}`;

describe('the automatic loop chart (TypeScript cells)', () => {
  it('a GradientTape-style loop reading Keras metrics per epoch draws one chart with exactly those values', async () => {
    const { data, meanLoss, accuracy, firstLoss } = problem(1);
    const { run } = startSession({ data });
    const charts = await run(KERAS_LOOP(false));
    expect(charts).toHaveLength(1);
    const [chart] = charts;
    expect(chart.panels.map((p) => p.title)).toEqual(['loss', 'accuracy']);
    expect(chart.panels[1]).toMatchObject({ yMin: 0, yMax: 1, xLabel: 'epoch' });
    expectPoints(series(chart, 'train_loss'), meanLoss);
    expectPoints(series(chart, 'train_accuracy'), accuracy);
    // Validation is its own series: the first batch of each epoch, again.
    expectPoints(series(chart, 'valid_loss'), firstLoss);
  });

  it('reading a metric every step still gives one point per epoch, its last value', async () => {
    const { data, meanLoss, accuracy } = problem(2);
    const { run } = startSession({ data });
    const [chart] = await run(KERAS_LOOP(true));
    expectPoints(series(chart, 'train_loss'), meanLoss);
    expectPoints(series(chart, 'train_accuracy'), accuracy);
  });

  it('autoChart(false) turns it off, autoChart({ names }) renames series', async () => {
    const { data, meanLoss } = problem(3);
    const { run } = startSession({ data });
    expect(await run('autoChart(false)')).toEqual([]);
    expect(await run(KERAS_LOOP(false))).toEqual([]);
    await run(
      "autoChart({ enabled: true, names: { train_loss: 'loss', valid_loss: 'val_loss' } })",
    );
    const [chart] = await run(KERAS_LOOP(false));
    expectPoints(series(chart, 'loss'), meanLoss);
    expect(chart.panels.flatMap((p) => p.series.map((s) => s.name))).toEqual([
      'loss',
      'val_loss',
      'train_accuracy',
    ]);
  });

  it('a cell that reads no metric draws nothing', async () => {
    const { data } = problem(4);
    const { run } = startSession({ data });
    const code = `const m = new tf.keras.metrics.Mean({ name: 'train_loss' });
for (const { loss } of data[0]) m.updateState(loss);
m.resetStates();`;
    expect(await run(code)).toEqual([]);
  });

  it('a printed epoch log ({ epoch, loss }) puts its numbers at x = epoch; other prints draw nothing', async () => {
    const random = rng(7);
    const losses = Array.from({ length: 4 }, () => 5 * random());
    const { run } = startSession({ losses });
    const code = `for (let i = 0; i < losses.length; i++) {
  print({ epoch: i * 50, loss: losses[i], note: 'text is not drawn' });
  print({ step: i, loss: 99 }); // no epoch: not a log
  print('epoch', i, 99);
}`;
    const charts = await run(code);
    expect(charts).toHaveLength(1);
    expect(series(charts[0], 'loss')).toEqual(losses.map((loss, i) => [i * 50, loss]));
    expect(charts[0].panels.flatMap((p) => p.series).map((s) => s.name)).toEqual(['loss']);
    expect(await run(`print({ epoch: 1, name: 'no numbers' }); print([1, 2]);`)).toEqual([]);
  });

  it('tqdm postfix values are drawn at the bar position, epoch k ending at x = k', async () => {
    const { run } = startSession({});
    const code = `for (let epoch = 1; epoch <= 2; epoch++) {
  const loop = tqdm([1, 2, 3, 4], { desc: 'train' });
  for (const step of loop) loop.setPostfix({ train_loss: epoch * 10 + step, note: 'text' });
  loop.setPostfixStr('train_acc=0.' + epoch + ', lr=0.01');
}`;
    const [chart] = await run(code);
    expect(series(chart, 'train_loss')).toEqual([
      [0.25, 11],
      [0.5, 12],
      [0.75, 13],
      [1, 14],
      [1.25, 21],
      [1.5, 22],
      [1.75, 23],
      [2, 24],
    ]);
    expect(series(chart, 'train_acc')).toEqual([
      [1, 0.1],
      [2, 0.2],
    ]);
    expect(series(chart, 'lr')).toHaveLength(2);
  });

  it('torchmetrics compute() in a loop: train and validation reads are separate series', async () => {
    // The validation pass reads the same metric on the first batch only, with predictions that
    // do not require grad; the training pass's predictions do.
    const { data, accuracy, firstAccuracy: valAccuracy } = problem(5);
    const { run } = startSession({ data });
    const code = `const acc = new torchmetrics.Accuracy({ task: 'multiclass', numClasses: ${CLASSES} });
for (let epoch = 1; epoch <= data.length; epoch++) {
  for (const { labels, scores } of data[epoch - 1]) acc.update(scores.detach().requiresGrad_(), labels);
  print('train', await acc.compute());
  acc.reset();
  acc.update(data[epoch - 1][0].scores, data[epoch - 1][0].labels);
  print('val', await acc.compute());
  acc.reset();
}`;
    const [chart] = await run(code);
    expectPoints(series(chart, 'train_acc'), accuracy);
    expectPoints(series(chart, 'val_acc'), valAccuracy);
  });

  it('draws nothing of its own while a Keras fit runs (fit draws its chart)', async () => {
    const random = rng(6);
    const x = ops.fromHost(Float32Array.from({ length: 32 * 4 }, random), [32, 4], { device });
    const y = ops.fromHost(
      Int32Array.from({ length: 32 }, () => Math.floor(3 * random())),
      [32],
      { device },
    );
    const { run } = startSession({ x, y });
    const code = `const { models, layers, metrics } = tf.keras;
const model = new models.Sequential([new layers.Dense(3, { inputShape: [4] })]);
model.compile({ optimizer: 'adam', loss: 'sparse_categorical_crossentropy', metrics: [new metrics.SparseCategoricalAccuracy()] });
await model.fit(x, y, { epochs: 2, batchSize: 8, verbose: 0 });`;
    const charts = await run(code);
    expect(charts).toHaveLength(1);
    // fit's own chart: it knows its epochs ahead.
    expect(charts[0].panels[0]).toMatchObject({ xMin: 0, xMax: 2 });
    expect(charts[0].panels.flatMap((p) => p.series.map((s) => s.name))).toContain('loss');
  });
});
