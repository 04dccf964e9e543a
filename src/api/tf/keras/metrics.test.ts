import { describe, expect, it } from 'vitest';
import { cpu, ops } from '../../../engine';
import { expectClose, rng } from '../../../engine/testing/harness';
import {
  CategoricalAccuracy,
  getMetric,
  Mean,
  SparseCategoricalAccuracy,
  SparseTopKCategoricalAccuracy,
} from './metrics';

const device = cpu();

function scores(n: number, c: number, seed: number): number[][] {
  const random = rng(seed);
  return Array.from({ length: n }, () =>
    Array.from({ length: c }, () => Math.fround(random() * 4 - 2)),
  );
}

function rank(row: number[], label: number): number {
  return row.filter((v) => v > row[label]).length;
}

describe('tf.keras.metrics', () => {
  it('Mean: weighted running mean over batches; result() is a tensor; resetStates clears', async () => {
    const m = new Mean({ name: 'train_loss' });
    expect(m.name).toBe('train_loss');
    m.updateState(ops.fromData(2.5, { device }));
    m.updateState(ops.fromData([1, 3], { device }));
    m.updateState(ops.fromData([4], { device }), ops.fromData([3], { device }));
    const r = m.result();
    expect(r.shape).toEqual([]);
    expectClose(await r.data(), [(2.5 + 1 + 3 + 12) / 6], 'mean');
    m.resetStates();
    expect(await m.result().item()).toBe(0);
    m.updateState(7);
    expect(await m.result().item()).toBe(7);
    m.resetState();
    expect(await m(ops.fromData([1, 2], { device })).item()).toBe(1.5);
  });

  it('SparseCategoricalAccuracy and top-k against hand counts over two batches', async () => {
    const s1 = scores(7, 6, 1);
    const s2 = scores(5, 6, 2);
    const random = rng(3);
    const y1 = s1.map(() => Math.floor(random() * 6));
    const y2 = s2.map(() => Math.floor(random() * 6));
    // Some hits for sure: a few labels are the argmax.
    for (const [s, y, i] of [
      [s1, y1, 0],
      [s1, y1, 4],
      [s2, y2, 1],
    ] as const)
      y[i] = s[i].indexOf(Math.max(...s[i]));
    const acc = new SparseCategoricalAccuracy();
    const top3 = new SparseTopKCategoricalAccuracy(3);
    const top5 = new SparseTopKCategoricalAccuracy({ name: 'top5' });
    for (const [s, y] of [
      [s1, y1],
      [s2, y2],
    ] as const) {
      const preds = ops.fromData(s, { device });
      const labels = ops.fromData(y, { device, dtype: 'int32' });
      acc.updateState(labels, preds);
      top3.updateState(ops.reshape(labels, [-1, 1]), preds);
      top5.updateState(labels, preds);
    }
    const all = [...s1, ...s2];
    const ys = [...y1, ...y2];
    const count = (k: number): number =>
      all.filter((row, i) => rank(row, ys[i]) < k).length / all.length;
    expectClose(await acc.result().data(), [count(1)], 'top-1');
    expectClose(await top3.result().data(), [count(3)], 'top-3');
    expectClose(await top5.result().data(), [count(5)], 'top-5');
    expect(top5.name).toBe('top5');
    expect(acc.name).toBe('sparse_categorical_accuracy');
    expect(count(1)).toBeGreaterThan(0);
    expect(count(3)).toBeLessThan(1);
  });

  it('CategoricalAccuracy uses one-hot targets; "accuracy" follows the loss', async () => {
    const preds = ops.fromData(
      [
        [0.1, 0.9],
        [0.8, 0.2],
        [0.3, 0.7],
      ],
      { device },
    );
    const oneHot = ops.fromData(
      [
        [0, 1],
        [0, 1],
        [0, 1],
      ],
      { device },
    );
    const m = new CategoricalAccuracy();
    expectClose(await m(oneHot, preds).data(), [2 / 3], 'categorical accuracy');
    const named = getMetric('accuracy', true);
    expect(named).toBeInstanceOf(SparseCategoricalAccuracy);
    expect(named.name).toBe('accuracy');
    expect(getMetric('accuracy', false)).toBeInstanceOf(CategoricalAccuracy);
  });
});
