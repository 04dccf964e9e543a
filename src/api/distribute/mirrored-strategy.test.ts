import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuDevices, type Tensor } from '../../engine';
import { initTwoLogicalGpus } from '../../engine/testing/two-gpus';
import { setTrainingOutput } from '../../engine/training';
import { tf } from '../tf';
import { MirroredStrategy } from './mirrored-strategy';

const printed: string[] = [];

beforeAll(async () => {
  await initTwoLogicalGpus();
  setTrainingOutput((text) => printed.push(text));
});
afterAll(() => setTrainingOutput(null));

/** 22 rows of features (never zero) and labels in 0..3: two batches of 11, split 6 + 5. */
function dataset() {
  const x = Array.from({ length: 22 }, (_, i) =>
    Array.from({ length: 6 }, (_, j) => Math.sin(i * 1.3 + j * 0.7) + 0.2),
  );
  const y = Array.from({ length: 22 }, (_, i) => (i * 7) % 4);
  return tf.data.Dataset.fromTensorSlices([tf.constant(x), tf.constant(y, 'int32')]).batch(11);
}

type Optimizer = 'sgd' | 'adam';

function makeModel(optimizer: Optimizer) {
  tf.random.setSeed(11);
  const model = new tf.keras.models.Sequential([
    new tf.keras.layers.Dense(16, { activation: 'relu', inputShape: [6] }),
    new tf.keras.layers.Dense(4),
  ]);
  model.compile({
    optimizer:
      optimizer === 'sgd'
        ? new tf.keras.optimizers.SGD({ learningRate: 0.1, momentum: 0.9 })
        : new tf.keras.optimizers.Adam({ learningRate: 0.01 }),
    loss: new tf.keras.losses.SparseCategoricalCrossentropy({ fromLogits: true }),
    metrics: ['accuracy'],
  });
  return model;
}

async function values(weights: readonly Tensor[]): Promise<number[][]> {
  return Promise.all(weights.map(async (w) => Array.from(await w.data())));
}

function maxDifference(a: number[][], b: number[][]): number {
  let worst = 0;
  a.forEach((w, i) => w.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - b[i][j])))));
  return worst;
}

describe('tf.distribute.MirroredStrategy on two logical GPUs', () => {
  it('prints its devices and how gradients are reduced', () => {
    printed.length = 0;
    const strategy = new tf.distribute.MirroredStrategy();
    expect(strategy.numReplicasInSync).toBe(2);
    expect(printed.join('')).toContain(
      "Using MirroredStrategy with devices ('/job:localhost/replica:0/task:0/device:GPU:0', " +
        "'/job:localhost/replica:0/task:0/device:GPU:1')",
    );
    expect(printed.join('')).toContain(
      'ReductionToOneDevice onto /job:localhost/replica:0/task:0/device:GPU:0',
    );
    expect(new MirroredStrategy(['/gpu:1']).numReplicasInSync).toBe(1);
  });

  for (const optimizer of ['sgd', 'adam'] as const) {
    it(`fit gives the weights of one device on the same batches (${optimizer})`, async () => {
      const single = makeModel(optimizer);
      const singleHistory = await single.fit(dataset(), { epochs: 2, verbose: 0 });

      const strategy = new tf.distribute.MirroredStrategy();
      const mirrored = await strategy.scope(async () => makeModel(optimizer));
      expect(mirrored.distributeStrategy).toBe(strategy);
      expect(mirrored.weights.every((w) => w.device === 'gpu:0')).toBe(true);
      const initial = await values(mirrored.weights);
      const history = await mirrored.fit(dataset(), { epochs: 2, verbose: 0 });

      const expected = await values(single.weights);
      expect(maxDifference(expected, initial)).toBeGreaterThan(1e-3);
      expect(maxDifference(await values(mirrored.weights), expected)).toBeLessThan(1e-5);
      const losses = history.history.loss as number[];
      (singleHistory.history.loss as number[]).forEach((l, i) =>
        expect(losses[i]).toBeCloseTo(l, 5),
      );
      expect(history.history.accuracy).toEqual(singleHistory.history.accuracy);
      // The second replica holds mirrors of every weight on its own device.
      const mirrorBytes = single.weights.reduce((n, w) => n + w.numel() * 4, 0);
      expect(gpuDevices()[1].memory.inUse).toBeGreaterThanOrEqual(mirrorBytes);
    });
  }
});
