/**
 * The TF chapters' cells, written line by line against the API, type-check against the cell
 * API declarations the editor uses (untyped parameters, as chapter code has, included).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { generateCellApiDts } from '../../../scripts/cell-api-dts';
import { checkCells } from '../../notebook/editor/testing/checkCells';

it('the single- and multi-GPU chapter cells type-check in the editor', () => {
  const dts = generateCellApiDts({ root: path.resolve(__dirname, '../../..') });
  expect(dts.problems).toEqual([]);
  const cells = [
    `const { models, layers, datasets, preprocessing, optimizers, losses, metrics } = tf.keras;
const gpus = tf.config.listPhysicalDevices("GPU");
const MAX_LEN = 300;
const BATCH_SIZE = 32;
let [[xTrain0, yTrain], [xTest0, yTest]] = await datasets.reuters.loadData();
const xTrain = preprocessing.sequence.padSequences(xTrain0, { maxlen: MAX_LEN });
const xTest = preprocessing.sequence.padSequences(xTest0, { maxlen: MAX_LEN });
const MAX_WORDS = (await xTrain.max().item()) + 1;
const CAT_NUM = (await yTrain.max().item()) + 1;
const dsTrain = tf.data.Dataset.fromTensorSlices([xTrain, yTrain])
  .shuffle({ bufferSize: 1000 }).batch(BATCH_SIZE)
  .prefetch(tf.data.experimental.AUTOTUNE).cache();
const dsTest = tf.data.Dataset.fromTensorSlices([xTest, yTest])
  .shuffle({ bufferSize: 1000 }).batch(BATCH_SIZE)
  .prefetch(tf.data.experimental.AUTOTUNE).cache();
tf.keras.backend.clearSession();
function createModel() {
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
const model = createModel();
model.summary();
const optimizer = new optimizers.Nadam();
const lossFunc = new losses.SparseCategoricalCrossentropy();
const trainLoss = new metrics.Mean({ name: 'train_loss' });
const trainMetric = new metrics.SparseCategoricalAccuracy({ name: 'train_accuracy' });
const validLoss = new metrics.Mean({ name: 'valid_loss' });
const validMetric = new metrics.SparseCategoricalAccuracy({ name: 'valid_accuracy' });
const trainStep = tf.function((model, features, labels) => {
  const tape = new tf.GradientTape();
  const predictions = model(features, { training: true });
  const loss = lossFunc(labels, predictions);
  const gradients = tape.gradient(loss, model.trainableVariables);
  optimizer.applyGradients(tf.zip(gradients, model.trainableVariables));
  trainLoss.updateState(loss);
  trainMetric.updateState(labels, predictions);
});
async function trainModel(model, dsTrain, dsValid, epochs) {
  for (let epoch = 1; epoch <= epochs; epoch++) {
    for await (const [features, labels] of dsTrain) trainStep(model, features, labels);
    print(\`Epoch=\${epoch},Loss:\`, trainLoss.result(), trainMetric.result());
    trainLoss.resetStates();
  }
}
await trainModel(model, dsTrain, dsTest, 10);
model.compile({ optimizer: new optimizers.Nadam(), loss: new losses.SparseCategoricalCrossentropy({ fromLogits: true }),
  metrics: [new metrics.SparseCategoricalAccuracy(), new metrics.SparseTopKCategoricalAccuracy(5)] });
const history = await model.fit(dsTrain, { validationData: dsTest, epochs: 10 });
print(history.history.loss, history.epoch);
const [[x, y]] = await tf.keras.datasets.mnist.loadData();
print(x.shape, await model.evaluate(dsTest));
`,
  ];
  expect(checkCells([dts.text], cells)).toEqual([]);
}, 120000);
