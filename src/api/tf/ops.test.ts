/**
 * The tf tensor functions as TypeScript cells call them (positional arguments, then one options
 * object of camelCased keywords; the value-dependent ones awaited). Their values and gradients
 * against float64 formulas are in src/api/python/keras-tf-ops.test.ts; this checks the TS face.
 */
import { describe, expect, it } from 'vitest';
import { Tensor } from '../../engine';
import { tf } from '../tf';

const x = () =>
  tf.constant([
    [1, -2, 3],
    [4, 0.5, -6],
  ]);

const round = async (t: Tensor) =>
  ((await t.tolist()) as number[][]).map((r) => r.map((v) => Math.round(v * 1e4) / 1e4));

describe('tf tensor functions from TypeScript', () => {
  it('reductions take an axis list and keepdims in the options object', async () => {
    expect(await tf.reduceSum(x(), { axis: [1], keepdims: true }).tolist()).toEqual([[2], [-1.5]]);
    expect(await tf.reduceProd(x(), 0).tolist()).toEqual([4, -1, -18]);
    expect(await tf.reduceAny(tf.greater(x(), 3), 1).tolist()).toEqual([0, 1]);
    expect(await tf.argmin(x()).tolist()).toEqual([0, 0, 1]);
  });

  it('booleanMask and whereAsync read the mask back; one-argument where says so', async () => {
    const mask = tf.greater(x(), 0);
    expect(await (await tf.booleanMask(x(), mask)).tolist()).toEqual([1, 3, 4, 0.5]);
    expect(await (await tf.whereAsync(mask)).tolist()).toEqual([
      [0, 0],
      [0, 2],
      [1, 0],
      [1, 1],
    ]);
    expect(() => tf.where(mask)).toThrow(/tf\.whereAsync/);
    expect(await tf.where(mask, x(), 0).tolist()).toEqual([
      [1, 0, 3],
      [4, 0.5, 0],
    ]);
  });

  it('tf.math.topK, tf.nn.moments and tf.unstack give arrays of tensors', async () => {
    const [values, indices] = tf.math.topK(x(), { k: 2 });
    expect(await values.tolist()).toEqual([
      [3, 1],
      [4, 0.5],
    ]);
    expect(await indices.tolist()).toEqual([
      [2, 0],
      [0, 1],
    ]);
    const [mean, variance] = tf.nn.moments(x(), [0]);
    expect(await mean.tolist()).toEqual([2.5, -0.75, -1.5]);
    expect(await variance.tolist()).toEqual([2.25, 1.5625, 20.25]);
    expect(tf.unstack(x(), { axis: 1 }).map((t) => t.shape)).toEqual([[2], [2], [2]]);
  });

  it('nn cross-entropies and softmax along an axis', async () => {
    const logits = x();
    const sparse = tf.nn.sparseSoftmaxCrossEntropyWithLogits([2, 0], logits);
    const dense = tf.nn.softmaxCrossEntropyWithLogits(tf.oneHot([2, 0], 3), logits);
    expect(await sparse.tolist()).toEqual(await dense.tolist());
    expect(await round(tf.reduceSum(tf.nn.softmax(logits, { axis: 0 }), 0, true))).toEqual([
      [1, 1, 1],
    ]);
  });

  it('bad arguments raise ValueError naming the function and the shapes', () => {
    expect(() => tf.concat([x(), tf.ones([2, 2])], 0)).toThrow();
    expect(() => tf.squeeze(x(), 0)).toThrow(
      'tf.squeeze: Can not squeeze dim[0], expected a dimension of 1, got 2',
    );
    expect(() => tf.random.uniform([2], { dtype: 'int32' })).toThrow(
      'Must specify maxval for integer dtype tf.int32',
    );
    expect(() => tf.nn.sigmoidCrossEntropyWithLogits(tf.ones([2, 2]), x())).toThrow(
      /logits and labels must have the same shape \(\[2, 3\] vs \[2, 2\]\)/,
    );
  });

  it('truncatedNormal stays within two standard deviations', async () => {
    const t = tf.random.truncatedNormal([2000], { mean: 3, stddev: 0.5 });
    const values = (await t.tolist()) as number[];
    expect(Math.max(...values.map((v) => Math.abs(v - 3)))).toBeLessThanOrEqual(1 + 1e-6);
  });
});
