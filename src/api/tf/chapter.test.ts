/**
 * The TF chapters' code (6-3 single GPU, multi GPU) line by line through the API, on a small
 * slice of the bundled text corpus on the CPU: reuters.loadData → padSequences → tf.data →
 * Sequential(Embedding, Conv1D, MaxPool1D, Conv1D, MaxPool1D, Flatten, Dense) → the custom
 * GradientTape loop with Nadam, and compile/fit with metric objects.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualSeed, type Tensor } from '../../engine';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { setAssetReader } from '../../engine/data/datasets';
import { setTrainingOutput } from '../../engine/training';
import { tf } from '../tf';

const { models, layers, datasets, preprocessing, optimizers, losses, metrics } = tf.keras;

beforeAll(() => setAssetReader(builtDataReader()));
beforeEach(() => {
  tf.keras.backend.clearSession();
  manualSeed(0);
});
afterEach(() => setTrainingOutput(null));

const MAX_LEN = 100;
const BATCH_SIZE = 32;

async function prepare(trainCount: number, testCount: number) {
  const [[xTrain0, yTrain0], [xTest0, yTest0]] = await datasets.reuters.loadData({
    numWords: 3000,
  });
  const xTrain = preprocessing.sequence.padSequences(xTrain0.slice(0, trainCount), {
    maxlen: MAX_LEN,
  });
  const xTest = preprocessing.sequence.padSequences(xTest0.slice(0, testCount), {
    maxlen: MAX_LEN,
  });
  const yTrain = yTrain0.narrow(0, 0, trainCount);
  const yTest = yTest0.narrow(0, 0, testCount);
  const MAX_WORDS = (await xTrain.max().item()) + 1;
  const CAT_NUM = (await yTrain0.max().item()) + 1;
  const dsTrain = tf.data.Dataset.fromTensorSlices([xTrain, yTrain])
    .shuffle({ bufferSize: 1000 })
    .batch(BATCH_SIZE)
    .prefetch(tf.data.experimental.AUTOTUNE)
    .cache();
  const dsTest = tf.data.Dataset.fromTensorSlices([xTest, yTest])
    .shuffle({ bufferSize: 1000 })
    .batch(BATCH_SIZE)
    .prefetch(tf.data.experimental.AUTOTUNE)
    .cache();
  return { xTrain, MAX_WORDS, CAT_NUM, dsTrain, dsTest };
}

function createModel(MAX_WORDS: number, CAT_NUM: number) {
  const model = new models.Sequential();
  model.add(new layers.Embedding(MAX_WORDS, 7, { inputLength: MAX_LEN }));
  model.add(new layers.Conv1D({ filters: 64, kernelSize: 5, activation: 'relu' }));
  model.add(new layers.MaxPool1D(2));
  model.add(new layers.Conv1D({ filters: 32, kernelSize: 3, activation: 'relu' }));
  model.add(new layers.MaxPool1D(2));
  model.add(new layers.Flatten());
  model.add(new layers.Dense(CAT_NUM, { activation: 'softmax' }));
  return model;
}

describe('the TF chapters through the API', () => {
  it('padSequences, MAX_WORDS = x_train.max() + 1 and the shapes of the chapter', async () => {
    const { xTrain, MAX_WORDS, CAT_NUM } = await prepare(600, 100);
    expect(xTrain.shape).toEqual([600, MAX_LEN]);
    expect(xTrain.dtype).toBe('int32');
    expect(MAX_WORDS).toBeLessThanOrEqual(3000);
    expect(MAX_WORDS).toBeGreaterThan(2900);
    expect(CAT_NUM).toBe(43);
    const model = createModel(MAX_WORDS, CAT_NUM);
    expect(model.summaryText()).toContain(`embedding (Embedding)        (None, ${MAX_LEN}, 7)`);
    expect(model.countParams()).toBe(MAX_WORDS * 7 + 2304 + 6176 + (23 * 32 + 1) * CAT_NUM);
  });

  it('the custom GradientTape loop with Nadam learns: train loss falls clearly over 2 epochs', async () => {
    const { MAX_WORDS, CAT_NUM, dsTrain, dsTest } = await prepare(960, 160);
    const model = createModel(MAX_WORDS, CAT_NUM);

    // The chapter's Nadam; a larger step than its default 1e-3 so 2 short epochs show learning.
    const optimizer = new optimizers.Nadam({ learningRate: 0.005 });
    const lossFunc = new losses.SparseCategoricalCrossentropy();
    const trainLoss = new metrics.Mean({ name: 'train_loss' });
    const trainMetric = new metrics.SparseCategoricalAccuracy({ name: 'train_accuracy' });
    const validLoss = new metrics.Mean({ name: 'valid_loss' });
    const validMetric = new metrics.SparseCategoricalAccuracy({ name: 'valid_accuracy' });

    const trainStep = tf.function(
      (model: ReturnType<typeof createModel>, features: Tensor, labels: Tensor) => {
        const tape = new tf.GradientTape();
        const predictions = model(features, { training: true });
        const loss = lossFunc(labels, predictions);
        const gradients = tape.gradient(loss, model.trainableVariables);
        optimizer.applyGradients(tf.zip(gradients, model.trainableVariables));
        trainLoss.updateState(loss);
        trainMetric.updateState(labels, predictions);
      },
    );

    const validStep = tf.function(
      (model: ReturnType<typeof createModel>, features: Tensor, labels: Tensor) => {
        const predictions = model(features);
        const batchLoss = lossFunc(labels, predictions);
        validLoss.updateState(batchLoss);
        validMetric.updateState(labels, predictions);
      },
    );

    const epochLosses: number[] = [];
    const validLosses: number[] = [];
    const logs: string[] = [];
    async function trainModel(
      model: ReturnType<typeof createModel>,
      dsTrain: typeof dsTest,
      dsValid: typeof dsTest,
      epochs: number,
    ) {
      for (let epoch = 1; epoch <= epochs; epoch++) {
        for await (const [features, labels] of dsTrain) trainStep(model, features, labels);
        for await (const [features, labels] of dsValid) validStep(model, features, labels);
        const [l, a, vl, va] = await Promise.all([
          trainLoss.result().item(),
          trainMetric.result().item(),
          validLoss.result().item(),
          validMetric.result().item(),
        ]);
        logs.push(`Epoch=${epoch},Loss:${l},Accuracy:${a},Valid Loss:${vl},Valid Accuracy:${va}`);
        epochLosses.push(l);
        validLosses.push(vl);
        trainLoss.resetStates();
        validLoss.resetStates();
        trainMetric.resetStates();
        validMetric.resetStates();
      }
    }
    await trainModel(model, dsTrain, dsTest, 2);
    expect(logs[1]).toMatch(
      /^Epoch=2,Loss:[\d.]+,Accuracy:[\d.]+,Valid Loss:[\d.]+,Valid Accuracy:[\d.]+$/,
    );
    expect(optimizer.iterations).toBe(2 * 30);
    // Chance is log(43) = 3.76; the second epoch is clearly lower, on held-out data too.
    expect(epochLosses[0]).toBeLessThan(Math.log(CAT_NUM));
    expect(epochLosses[1]).toBeLessThan(epochLosses[0] - 0.1);
    expect(validLosses[1]).toBeLessThan(validLosses[0]);
  });

  it('compile/fit as in the multi-GPU chapter: Nadam, fromLogits, accuracy and top-5', async () => {
    const { MAX_WORDS, CAT_NUM, dsTrain, dsTest } = await prepare(320, 64);
    const printed: string[] = [];
    setTrainingOutput((text) => printed.push(text));
    const model = createModel(MAX_WORDS, CAT_NUM);
    model.compile({
      optimizer: new optimizers.Nadam(),
      loss: new losses.SparseCategoricalCrossentropy({ fromLogits: true }),
      metrics: [
        new metrics.SparseCategoricalAccuracy(),
        new metrics.SparseTopKCategoricalAccuracy(5),
      ],
    });
    const history = await model.fit(dsTrain, { validationData: dsTest, epochs: 2 });
    expect(history.epoch).toEqual([0, 1]);
    expect(history.history.val_sparse_top_k_categorical_accuracy).toHaveLength(2);
    expect(history.history.loss[1]).toBeLessThan(history.history.loss[0]);
    expect(printed.filter((l) => l.startsWith('10/10 ['))).toHaveLength(2);
  });
});
