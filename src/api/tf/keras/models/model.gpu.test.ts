/**
 * One small Keras training run on WebGPU (Dawn on SwiftShader in Node): variables and batches on
 * gpu:0 (TensorFlow's placement), the channels-last conv stack against the cpu, and the loss
 * falling under fit. Skipped when no adapter is found.
 */
import { describe, expect, it } from 'vitest';
import { cpu, manualSeed, ops } from '../../../../engine';
import { expectClose, rng } from '../../../../engine/testing/harness';
import { testDevices } from '../../../../engine/testing/devices';
import { setTrainingOutput } from '../../../../engine/training';
import { tf } from '../../../tf';

const devices = await testDevices();
const gpu = devices.find((d) => d.kind === 'gpu');

/** Sequences of 12 token ids; the label says which of three marker tokens occurs. */
function tokens(n: number, seed: number): { x: number[][]; y: number[] } {
  const random = rng(seed);
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const label = Math.floor(random() * 3);
    const row = Array.from({ length: 12 }, () => 5 + Math.floor(random() * 40));
    row[Math.floor(random() * 12)] = 1 + label;
    x.push(row);
    y.push(label);
  }
  return { x, y };
}

function makeModel() {
  const { layers, models } = tf.keras;
  return new models.Sequential([
    new layers.Embedding(50, 6, { inputLength: 12 }),
    new layers.Conv1D({ filters: 8, kernelSize: 3, activation: 'relu' }),
    new layers.MaxPool1D(2),
    new layers.Flatten(),
    new layers.Dense(3, { activation: 'softmax' }),
  ]);
}

describe.skipIf(!gpu)('Keras on WebGPU', () => {
  it('places variables and batches on gpu:0, matches the cpu forward, and learns under fit', async () => {
    manualSeed(11);
    setTrainingOutput(() => {});
    const { x, y } = tokens(96, 1);
    const model = makeModel();
    expect(model.trainableVariables.every((v) => v.device === 'gpu:0')).toBe(true);

    // The same weights on the cpu give the same forward (conv/pool/dense channels-last wrappers).
    const cpuModel = tf.device('/cpu:0', () => makeModel());
    cpuModel.setWeights(await model.getWeights());
    const xs = ops.fromData(x.slice(0, 8), { device: cpu(), dtype: 'int32' });
    expectClose(await model(xs).data(), await cpuModel(xs).data(), 'gpu vs cpu forward', 1e-4);

    const xt = ops.fromData(x, { device: cpu(), dtype: 'int32' });
    const yt = ops.fromData(y, { device: cpu(), dtype: 'int32' });
    const train = tf.data.Dataset.fromTensorSlices([xt, yt]).shuffle(96).batch(16);
    const [[bx, by]] = await train.take(1).toArray();
    expect([bx.device, by.device]).toEqual(['gpu:0', 'gpu:0']);

    model.compile({
      optimizer: new tf.keras.optimizers.Adam(0.02),
      loss: 'sparse_categorical_crossentropy',
      metrics: ['accuracy'],
    });
    const history = await model.fit(train, { epochs: 3 });
    const loss = history.history.loss;
    expect(loss[2]).toBeLessThan(loss[0] * 0.85);
    setTrainingOutput(null);
  }, 300_000);
});
