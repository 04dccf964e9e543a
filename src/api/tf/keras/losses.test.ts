import { describe, expect, it } from 'vitest';
import { cpu, ops } from '../../../engine';
import { expectClose } from '../../../engine/testing/harness';
import { getActivation, softmax } from './activations';
import {
  BinaryCrossentropy,
  CategoricalCrossentropy,
  getLoss,
  MeanSquaredError,
  SparseCategoricalCrossentropy,
} from './losses';

const device = cpu();
const logits = [
  [1.2, -0.3, 0.5, 2.0],
  [-1.1, 0.4, 0.9, -0.2],
  [0.3, 0.3, -2.5, 1.7],
];
const labels = [3, 0, 2];

function softmaxRow(row: number[]): number[] {
  const m = Math.max(...row);
  const e = row.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

describe('tf.keras.losses', () => {
  it('SparseCategoricalCrossentropy from logits: mean of logsumexp − logit[label]', async () => {
    const fn = new SparseCategoricalCrossentropy({ fromLogits: true });
    const expected = logits.map((row, i) => -Math.log(softmaxRow(row)[labels[i]]));
    const loss = fn(
      ops.fromData(labels, { device, dtype: 'int32' }),
      ops.fromData(logits, { device }),
    );
    expect(loss.shape).toEqual([]);
    expectClose(
      await loss.data(),
      [expected.reduce((a, b) => a + b, 0) / 3],
      'sparse from logits',
      1e-5,
    );
    const none = new SparseCategoricalCrossentropy({ fromLogits: true, reduction: 'none' });
    expectClose(
      await none(
        ops.fromData([[3], [0], [2]], { device }),
        ops.fromData(logits, { device }),
      ).data(),
      expected,
      'per sample, [N, 1] labels',
      1e-5,
    );
  });

  it('SparseCategoricalCrossentropy on probabilities clips to [1e-7, 1 − 1e-7] and renormalizes as TF', async () => {
    const probs = [
      [0.7, 0.2, 0.1, 0],
      [0.05, 0.05, 0.3, 0.6],
    ];
    const y = [3, 2];
    const fn = new SparseCategoricalCrossentropy();
    const expected = probs.map((row, i) => {
      const clipped = row.map((p) => Math.min(Math.max(p, 1e-7), 1 - 1e-7));
      return -Math.log(clipped[y[i]]) + Math.log(clipped.reduce((a, b) => a + b, 0));
    });
    const loss = fn(ops.fromData(y, { device }), ops.fromData(probs, { device }));
    expectClose(
      await loss.data(),
      [(expected[0] + expected[1]) / 2],
      'sparse on probabilities',
      1e-4,
    );
    // With a weight per sample: Σ w·l / N.
    const weighted = fn(
      ops.fromData(y, { device }),
      ops.fromData(probs, { device }),
      ops.fromData([2, 0.5], { device }),
    );
    expectClose(
      await weighted.data(),
      [(2 * expected[0] + 0.5 * expected[1]) / 2],
      'sample weights',
      1e-4,
    );
  });

  it('a Keras softmax output is scored from its logits, even when fromLogits is (wrongly) true', async () => {
    const x = ops.fromData(logits, { device });
    const p = softmax(x);
    const expected =
      logits.map((row, i) => -Math.log(softmaxRow(row)[labels[i]])).reduce((a, b) => a + b, 0) / 3;
    const y = ops.fromData(labels, { device, dtype: 'int32' });
    expectClose(
      await new SparseCategoricalCrossentropy()(y, p).data(),
      [expected],
      'probabilities with logits',
      1e-5,
    );
    expectClose(
      await new SparseCategoricalCrossentropy({ fromLogits: true })(y, p).data(),
      [expected],
      'chapter: fromLogits on softmax',
      1e-5,
    );
  });

  it('CategoricalCrossentropy, MeanSquaredError and BinaryCrossentropy against hand values', async () => {
    const oneHot = labels.map((l) => [0, 1, 2, 3].map((c) => (c === l ? 1 : 0)));
    const cce = new CategoricalCrossentropy({ fromLogits: true });
    const expected =
      logits.map((row, i) => -Math.log(softmaxRow(row)[labels[i]])).reduce((a, b) => a + b, 0) / 3;
    expectClose(
      await cce(ops.fromData(oneHot, { device }), ops.fromData(logits, { device })).data(),
      [expected],
      'cce',
      1e-5,
    );

    const mse = new MeanSquaredError();
    const a = [
      [1, 2],
      [3, -1],
    ];
    const b = [
      [0.5, 2.5],
      [1, 1],
    ];
    const hand = ((0.25 + 0.25) / 2 + (4 + 4) / 2) / 2;
    expectClose(
      await mse(ops.fromData(a, { device }), ops.fromData(b, { device })).data(),
      [hand],
      'mse',
      1e-6,
    );

    const bce = new BinaryCrossentropy({ fromLogits: true });
    const z = [
      [0.3, -1.2],
      [2.5, 0.1],
    ];
    const t = [
      [1, 0],
      [0, 1],
    ];
    const sig = (v: number): number => 1 / (1 + Math.exp(-v));
    let total = 0;
    z.forEach((row, i) =>
      row.forEach(
        (v, j) => (total += -(t[i][j] * Math.log(sig(v)) + (1 - t[i][j]) * Math.log(1 - sig(v)))),
      ),
    );
    expectClose(
      await bce(ops.fromData(t, { device }), ops.fromData(z, { device })).data(),
      [total / 4],
      'bce logits',
      1e-5,
    );
  });

  it('string names resolve as in compile()', () => {
    expect(getLoss('sparse_categorical_crossentropy').sparse).toBe(true);
    expect(getLoss('mse').name).toBe('mean_squared_error');
    expect(() => getLoss('nope')).toThrow(/Unknown loss function/);
  });
});

describe('binary_crossentropy on a Keras sigmoid output', () => {
  it('works from the remembered logits (no clipping), as TF 2.15 does', async () => {
    const x = ops.fromData([[20], [-20]], { device: cpu() });
    const p = getActivation('sigmoid', 'test').fn(x);
    const y = ops.fromData([[0], [1]], { device: cpu() });
    const fromProbabilities = await new BinaryCrossentropy()(y, p).item();
    const fromLogits = await new BinaryCrossentropy({ fromLogits: true })(y, x).item();
    expect(fromProbabilities).toBeCloseTo(20, 4);
    expect(fromProbabilities).toBeCloseTo(fromLogits, 5);
    // A plain tensor of the same probabilities is clipped: −log(1 − (1 − 1e-7) + 1e-7) ≈ 15.4.
    const plain = ops.fromData(await p.data(), { device: cpu() }).reshape([2, 1]);
    expect(await new BinaryCrossentropy()(y, plain).item()).toBeLessThan(16);
  });
});
