/**
 * Training loops written as the chapters write them (no dispose, no tidy) keep memory flat: the
 * custom GradientTape loop over a cached tf.data pipeline, and model.fit.
 */
import { describe, expect, it } from 'vitest';
import { cpu, manualSeed, memoryAllocated, ops } from '../../engine';
import { setTrainingOutput } from '../../engine/training';
import { tf } from '../tf';

const device = cpu();

function model() {
  const { layers, models } = tf.keras;
  return new models.Sequential([
    new layers.Embedding(30, 4, { inputLength: 10 }),
    new layers.Conv1D({ filters: 6, kernelSize: 3, activation: 'relu' }),
    new layers.MaxPool1D(2),
    new layers.Flatten(),
    new layers.Dropout(0.2),
    new layers.Dense(5, { activation: 'softmax' }),
  ]);
}

function data() {
  manualSeed(4);
  const x = ops.cast(ops.mul(ops.rand([96, 10], { device }), 30), 'int32');
  const y = ops.cast(ops.mul(ops.rand([96], { device }), 5), 'int32');
  return tf.data.Dataset.fromTensorSlices([x, y])
    .shuffle(1000)
    .batch(16)
    .prefetch(tf.data.AUTOTUNE)
    .cache();
}

describe('memory of Keras training loops', () => {
  it('the custom GradientTape loop is flat from the second epoch on', async () => {
    const net = model();
    const ds = data();
    const optimizer = new tf.keras.optimizers.Nadam();
    const lossFunc = new tf.keras.losses.SparseCategoricalCrossentropy();
    const trainLoss = new tf.keras.metrics.Mean({ name: 'train_loss' });
    const trainMetric = new tf.keras.metrics.SparseCategoricalAccuracy({ name: 'train_accuracy' });
    const used: number[] = [];
    for (let epoch = 1; epoch <= 6; epoch++) {
      for await (const [features, labels] of ds) {
        const tape = new tf.GradientTape();
        const predictions = net(features, { training: true });
        const loss = lossFunc(labels, predictions);
        const gradients = tape.gradient(loss, net.trainableVariables);
        optimizer.applyGradients(tf.zip(gradients, net.trainableVariables));
        trainLoss.updateState(loss);
        trainMetric.updateState(labels, predictions);
      }
      await trainLoss.result().item();
      trainLoss.resetStates();
      trainMetric.resetStates();
      used.push(memoryAllocated(device));
    }
    expect(used.slice(2)).toEqual(new Array(4).fill(used[2]));
  });

  it('model.fit is flat across calls', async () => {
    setTrainingOutput(() => {});
    const net = model();
    const ds = data();
    net.compile({
      optimizer: 'adam',
      loss: 'sparse_categorical_crossentropy',
      metrics: ['accuracy'],
    });
    const used: number[] = [];
    for (let i = 0; i < 4; i++) {
      await net.fit(ds, { validationData: ds, epochs: 2 });
      used.push(memoryAllocated(device));
    }
    setTrainingOutput(null);
    expect(used.slice(1)).toEqual(new Array(3).fill(used[1]));
  });
});
