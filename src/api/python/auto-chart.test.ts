/**
 * The automatic loop chart from Python cells (src/kernel/outputs/auto-chart.ts): Keras metrics'
 * `result()`, torchmetrics' `compute()` and tqdm's postfix values draw one chart per cell with no
 * helper call; `auto_chart` turns it off or renames series. The expected values are counted in
 * plain Python floats from the same random batches, not by the engine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { setMetricListener } from '../../engine/metrics';
import { testDevices } from '../../engine/testing/devices';
import { setDefaultObservers } from '../../engine/training';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import { setPostfixListener } from '../../kernel/outputs/progress';
import { expectPoints, series } from '../../kernel/testing/charts';
import {
  CHART_MIME,
  type CellOutput,
  type ChartData,
  type MimeBundle,
} from '../../kernel/protocol';
import { tf } from '../tf';
import { startPython } from './testing/pyodide';

await testDevices();
let sink: OutputSink | null = null;
const python = await startPython({ ...createIoGlobals({ current: () => sink }, {}), tf });

afterAll(() => {
  setMetricListener(null);
  setPostfixListener(null);
  setDefaultObservers(null);
});

/** Runs a cell into its own sink; returns its charts as the page ends up showing them. */
async function cell(code: string): Promise<{ charts: ChartData[]; result: unknown }> {
  const outputs: CellOutput[] = [];
  const updates = new Map<string, MimeBundle>();
  sink = new OutputSink({
    outputs: (o) => outputs.push(...o),
    updateDisplay: (id, data) => updates.set(id, data),
  });
  const result = await python.run(code);
  await sink.close();
  sink = null;
  const charts = outputs.flatMap((o) =>
    o.kind === 'display' && CHART_MIME in o.data
      ? [(updates.get(o.displayId ?? '') ?? o.data)[CHART_MIME] as ChartData]
      : [],
  );
  return { charts, result };
}

await python.run(`
import random
import sys
from copy import deepcopy

def batch(rnd, n=8, classes=5):
    losses = [3 * rnd.random() for _ in range(n)]
    labels = [rnd.randrange(classes) for _ in range(n)]
    scores = [[rnd.random() - 0.5 for _ in range(classes)] for _ in range(n)]
    return losses, labels, scores

def correct(labels, scores):
    return sum(1 for label, row in zip(labels, scores) if row.index(max(row)) == label)
`);

const TF_LOOP = `
import tensorflow as tf
from tensorflow.keras import metrics
rnd = random.Random(SEED)
train_loss = metrics.Mean(name="train_loss")
train_metric = metrics.SparseCategoricalAccuracy(name="train_accuracy")
valid_loss = metrics.Mean(name="valid_loss")
valid_metric = metrics.SparseCategoricalAccuracy(name="valid_accuracy")
expected = {"train_loss": [], "train_accuracy": [], "valid_loss": [], "valid_accuracy": []}
for epoch in tf.range(1, 4):
    total = right = seen = 0
    for _ in range(4):
        losses, labels, scores = batch(rnd)
        train_loss.update_state(tf.constant(losses))
        train_metric.update_state(tf.constant(labels), tf.constant(scores))
        total += sum(losses); right += correct(labels, scores); seen += len(labels)
    expected["train_loss"].append(total / seen)
    expected["train_accuracy"].append(right / seen)
    losses, labels, scores = batch(rnd)
    valid_loss.update_state(tf.constant(losses))
    valid_metric.update_state(tf.constant(labels), tf.constant(scores))
    expected["valid_loss"].append(sum(losses) / len(losses))
    expected["valid_accuracy"].append(correct(labels, scores) / len(labels))
    logs = "Epoch={},Loss:{},Accuracy:{},Valid Loss:{},Valid Accuracy:{}"
    tf.print(tf.strings.format(logs, (epoch, train_loss.result(), train_metric.result(),
                                      valid_loss.result(), valid_metric.result())))
    train_loss.reset_states()
    valid_loss.reset_states()
    train_metric.reset_states()
    valid_metric.reset_states()
expected
`;

describe('the automatic loop chart in Python cells', () => {
  it('the chapter GradientTape loop: tf.keras metrics read per epoch draw one chart with exactly those values', async () => {
    const { charts, result } = await cell(TF_LOOP.replace('SEED', '1'));
    expect(charts).toHaveLength(1);
    const expected = result as Record<string, number[]>;
    for (const name of ['train_loss', 'train_accuracy', 'valid_loss', 'valid_accuracy'])
      expectPoints(series(charts[0], name), expected[name]);
    expect(charts[0].panels.map((p) => p.title)).toEqual(['loss', 'accuracy']);
  });

  it('auto_chart(False) turns it off; auto_chart(names=...) renames series', async () => {
    expect((await cell('auto_chart(False)')).charts).toEqual([]);
    expect((await cell(TF_LOOP.replace('SEED', '2'))).charts).toEqual([]);
    await cell('auto_chart(names={"train_loss": "loss", "valid_loss": "val_loss"})');
    const { charts, result } = await cell(TF_LOOP.replace('SEED', '3'));
    await cell('auto_chart(names={})');
    expectPoints(series(charts[0], 'loss'), (result as Record<string, number[]>).train_loss);
    expectPoints(series(charts[0], 'val_loss'), (result as Record<string, number[]>).valid_loss);
    await expect(python.run('auto_chart("no")')).rejects.toThrow(/enabled must be True or False/);
  });

  it('torchmetrics as the torch chapter uses them: a copy per epoch, train and validation series', async () => {
    const { charts, result } = await cell(`
import torch
from torchmetrics import Accuracy
rnd = random.Random(4)
metrics_dict = {"acc": Accuracy(task="multiclass", num_classes=5)}
expected = {"train_acc": [], "val_acc": []}
for epoch in range(1, 4):
    train_metrics_dict = deepcopy(metrics_dict)
    right = seen = 0
    for step in range(4):
        losses, labels, scores = batch(rnd)
        preds = torch.tensor(scores, requires_grad=True)
        step_acc = {name: fn(preds, torch.tensor(labels)).item() for name, fn in train_metrics_dict.items()}
        right += correct(labels, scores); seen += len(labels)
    epoch_metrics = {"train_" + name: fn.compute().item() for name, fn in train_metrics_dict.items()}
    for fn in train_metrics_dict.values():
        fn.reset()
    expected["train_acc"].append(right / seen)
    val_metrics_dict = deepcopy(metrics_dict)
    with torch.no_grad():
        losses, labels, scores = batch(rnd)
        for fn in val_metrics_dict.values():
            fn.update(torch.tensor(scores), torch.tensor(labels))
    expected["val_acc"].append(correct(labels, scores) / len(labels))
    val_log = {"val_" + name: fn.compute().item() for name, fn in val_metrics_dict.items()}
expected
`);
    expect(charts).toHaveLength(1);
    const expected = result as Record<string, number[]>;
    expectPoints(series(charts[0], 'train_acc'), expected.train_acc);
    expectPoints(series(charts[0], 'val_acc'), expected.val_acc);
  });

  it('tqdm set_postfix and set_postfix_str values sit at the bar position, epoch k ending at x = k', async () => {
    const { charts } = await cell(`
from tqdm import tqdm
for epoch in range(1, 3):
    loop = tqdm(enumerate(range(4)), total=4, file=sys.stdout)
    for i, step in loop:
        if i != 3:
            loop.set_postfix(train_loss=epoch * 10 + i, note="text")
        else:
            loop.set_postfix_str(f"train_loss={epoch * 10 + i}, train_acc=0.{epoch}")
`);
    expect(charts).toHaveLength(1);
    expect(series(charts[0], 'train_loss')).toEqual([
      [0.25, 10],
      [0.5, 11],
      [0.75, 12],
      [1, 13],
      [1.25, 20],
      [1.5, 21],
      [1.75, 22],
      [2, 23],
    ]);
    expect(series(charts[0], 'train_acc')).toEqual([
      [1, 0.1],
      [2, 0.2],
    ]);
  });

  it('draws nothing for a cell that reads no metric, nor twice under fit', async () => {
    expect(
      (
        await cell(`
import tensorflow as tf
m = tf.keras.metrics.Mean(name="train_loss")
m.update_state(tf.constant([1.0, 2.0]))
m.reset_states()
`)
      ).charts,
    ).toEqual([]);
    const { charts } = await cell(`
import tensorflow as tf
from tensorflow.keras import layers, metrics, models
tf.random.set_seed(5)
x = tf.random.uniform([32, 4])
y = tf.random.uniform([32], 0, 3, "int32")
model = models.Sequential([layers.Dense(3, input_shape=(4,))])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
              metrics=[metrics.SparseCategoricalAccuracy()])
history = model.fit(x, y, epochs=2, batch_size=8, verbose=0)
`);
    expect(charts).toHaveLength(1);
    expect(charts[0].panels[0]).toMatchObject({ xMin: 0, xMax: 2 });
  });
});
