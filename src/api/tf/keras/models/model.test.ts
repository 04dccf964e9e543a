import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpu, manualSeed, ops, type Tensor } from '../../../../engine';
import { setTrainingOutput } from '../../../../engine/training';
import { rng } from '../../../../engine/testing/harness';
import { Dataset } from '../../data/dataset';
import { EarlyStopping } from '../callbacks';
import { Dense, Dropout } from '../layers';
import { SparseCategoricalCrossentropy } from '../losses';
import { SparseTopKCategoricalAccuracy } from '../metrics';
import { resetNames } from '../naming';
import { Adam, RMSprop } from '../optimizers';
import { Model } from './model';
import { Sequential } from './sequential';

const device = cpu();
let printed: string[] = [];

/** Three classes decided by which of three linear scores of x is largest. */
function blobs(n: number, seed: number): { x: Tensor; y: Tensor; xs: number[][]; ys: number[] } {
  const random = rng(seed);
  const xs = Array.from({ length: n }, () => [0, 1, 2, 3].map(() => random() * 2 - 1));
  const w = [
    [1, -1, 0.5],
    [0.5, 1, -1],
    [-1, 0.3, 1],
    [0.2, -0.5, 0.4],
  ];
  const ys = xs.map((row) => {
    const s = [0, 1, 2].map((j) => row.reduce((acc, v, i) => acc + v * w[i][j], 0));
    return s.indexOf(Math.max(...s));
  });
  return {
    x: ops.fromData(xs, { device }),
    y: ops.fromData(ys, { device, dtype: 'int32' }),
    xs,
    ys,
  };
}

function makeModel(): Sequential {
  return new Sequential([
    new Dense(16, { activation: 'relu', inputShape: [4] }),
    new Dense(3, { activation: 'softmax' }),
  ]);
}

beforeEach(() => {
  resetNames();
  manualSeed(3);
  printed = [];
  setTrainingOutput((text) => printed.push(text));
});
afterEach(() => setTrainingOutput(null));

describe('Keras compile / fit / evaluate / predict', () => {
  it('fit returns a History with one entry per epoch and validation keys; Keras lines are printed', async () => {
    const train = blobs(192, 1);
    const val = blobs(64, 2);
    const model = makeModel();
    model.compile({
      optimizer: new Adam(0.02),
      loss: 'sparse_categorical_crossentropy',
      metrics: ['accuracy'],
    });
    const dsTrain = Dataset.fromTensorSlices([train.x, train.y]).shuffle(1000).batch(32);
    const dsVal = Dataset.fromTensorSlices([val.x, val.y]).batch(32);
    const history = await model.fit(dsTrain, { validationData: dsVal, epochs: 4 });
    expect(Object.keys(history.history)).toEqual(['loss', 'accuracy', 'val_loss', 'val_accuracy']);
    expect(history.epoch).toEqual([0, 1, 2, 3]);
    for (const values of Object.values(history.history)) expect(values).toHaveLength(4);
    const loss = history.history.loss;
    expect(loss[3]).toBeLessThan(loss[0] * 0.8);
    expect(history.history.val_accuracy[3]).toBeGreaterThan(0.6);
    expect(printed.filter((l) => /^Epoch \d\/4/.test(l))).toHaveLength(4);
    expect(
      printed.some((l) =>
        /^6\/6 \[=+\] - loss: \d\.\d{4} - accuracy: \d\.\d{4} - val_loss: \d\.\d{4} - val_accuracy: \d\.\d{4}/.test(
          l,
        ),
      ),
    ).toBe(true);

    // evaluate on the validation data gives the last epoch's validation values (same weights) …
    const [evalLoss, evalAcc] = (await model.evaluate(dsVal, { verbose: 0 })) as number[];
    expect(evalLoss).toBeCloseTo(history.history.val_loss[3], 5);
    expect(evalAcc).toBeCloseTo(history.history.val_accuracy[3], 6);
    // … and both agree with a float64 computation from predict's probabilities.
    const probs = (await (await model.predict(val.x)).tolist()) as number[][];
    expect(probs).toHaveLength(64);
    const handLoss = probs.reduce((s, p, i) => s - Math.log(p[val.ys[i]]), 0) / 64;
    const handAcc = probs.filter((p, i) => p.indexOf(Math.max(...p)) === val.ys[i]).length / 64;
    expect(evalLoss).toBeCloseTo(handLoss, 4);
    expect(evalAcc).toBeCloseTo(handAcc, 6);
    const record = await model.evaluate(val.x, val.y, { returnDict: true, verbose: 0 });
    expect(Object.keys(record)).toEqual(['loss', 'accuracy']);
  });

  it('fit(x, y, { batchSize, validationSplit }) with metric objects, as in the multi-GPU chapter', async () => {
    const data = blobs(100, 4);
    const model = makeModel();
    model.compile({
      optimizer: 'nadam',
      loss: new SparseCategoricalCrossentropy({ fromLogits: true }),
      metrics: ['sparse_categorical_accuracy', new SparseTopKCategoricalAccuracy(2)],
    });
    const history = await model.fit(data.x, data.y, {
      batchSize: 16,
      epochs: 2,
      validationSplit: 0.2,
      verbose: 0,
    });
    expect(Object.keys(history.history)).toEqual([
      'loss',
      'sparse_categorical_accuracy',
      'sparse_top_k_categorical_accuracy',
      'val_loss',
      'val_sparse_categorical_accuracy',
      'val_sparse_top_k_categorical_accuracy',
    ]);
    expect(history.params.steps).toBe(5);
    expect(printed).toEqual([]);
    expect(model.metricsNames).toEqual([
      'loss',
      'sparse_categorical_accuracy',
      'sparse_top_k_categorical_accuracy',
    ]);
  });

  it('EarlyStopping stops when the monitored value stops improving', async () => {
    const data = blobs(64, 5);
    const model = new Sequential([new Dense(3, { activation: 'softmax', inputShape: [4] })]);
    // A learning rate this large makes the loss bounce, so patience 1 ends training early.
    model.compile({ optimizer: new Adam(5), loss: 'sparse_categorical_crossentropy' });
    const history = await model.fit(data.x, data.y, {
      epochs: 30,
      verbose: 0,
      callbacks: [new EarlyStopping({ monitor: 'loss', patience: 1 })],
    });
    const n = history.epoch.length;
    expect(n).toBeLessThan(30);
    const losses = history.history.loss;
    expect(losses[n - 1]).toBeGreaterThanOrEqual(Math.min(...losses.slice(0, n - 1)));
  });

  it("compile without an optimizer uses Keras's default, RMSprop, and trains", async () => {
    const data = blobs(48, 7);
    const model = makeModel();
    model.compile({ loss: 'sparse_categorical_crossentropy' });
    expect(model.optimizer).toBeInstanceOf(RMSprop);
    const history = await model.fit(data.x, data.y, { epochs: 3, verbose: 0 });
    const losses = history.history.loss;
    expect(losses[2]).toBeLessThan(losses[0]);
  });

  it('model(x, { training }) switches dropout; trainableVariables are kernels and biases in order', async () => {
    const model = new Sequential([
      new Dense(8, { inputShape: [4] }),
      new Dropout(0.5),
      new Dense(2),
    ]);
    expect(model.trainableVariables.map((v) => v.shape)).toEqual([[4, 8], [8], [8, 2], [2]]);
    const x = ops.ones([3, 4], { device });
    const a = await model(x).tolist();
    expect(await model(x, { training: false }).tolist()).toEqual(a);
    const trained = await Promise.all([0, 1, 2].map(() => model(x, { training: true }).tolist()));
    expect(trained.some((t) => JSON.stringify(t) !== JSON.stringify(a))).toBe(true);
    await expect(model.fit(x, x)).rejects.toThrow(/compile/);
  });

  it('a subclassed tf.keras.Model finds its layers in its fields, trains, and prints a summary', async () => {
    class Net extends Model {
      hidden = new Dense(8, { activation: 'relu' });
      out = new Dense(3, { activation: 'softmax' });
      protected override call(x: Tensor): Tensor {
        return this.out(this.hidden(x));
      }
    }
    const net = new Net();
    expect(net.name).toBe('net');
    expect(() => net.summary()).toThrow(/not yet been built/);
    const data = blobs(64, 6);
    net.compile({
      optimizer: new Adam(0.05),
      loss: 'sparse_categorical_crossentropy',
      metrics: ['accuracy'],
    });
    const history = await net.fit(data.x, data.y, { epochs: 3, verbose: 0 });
    expect(history.history.loss[2]).toBeLessThan(history.history.loss[0]);
    expect(net.layers.map((l) => l.name)).toEqual(['dense', 'dense_1']);
    expect(net.trainableVariables.map((v) => v.shape)).toEqual([[4, 8], [8], [8, 3], [3]]);
    const text = net.summaryText();
    expect(text).toContain('Model: "net"');
    expect(text).toContain('dense_1 (Dense)              (None, 3)                 27');
    expect(text).toContain('Total params: 67');
  });
});
