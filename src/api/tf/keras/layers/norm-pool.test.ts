/**
 * The normalisation, pooling and shaping layers at the TypeScript level: weight names and order,
 * trainable flags, which layers pass a Keras mask on, shapes with unknown sizes, and arguments
 * refused. Their numbers are checked against float64 formulas in
 * src/api/python/keras-norm-pool.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cpu, ops, type Tensor } from '../../../../engine';
import { resetNames } from '../naming';
import { Embedding } from './embedding';
import { kerasMask } from './masking';
import { Activation, Dropout, Flatten, layers } from './index';
import { BatchNormalization } from './batch-norm';
import { LayerNormalization } from './layer-norm';
import { Reshape } from './reshape';

const device = cpu();

beforeEach(() => resetNames());

describe('BatchNormalization', () => {
  it("has Keras's weights in Keras's order, the moving ones non-trainable", () => {
    const bn = new BatchNormalization();
    bn.build([null, 5, 3]);
    expect(bn.namedWeights.map((w) => [w.name, w.trainable, w.value.shape])).toEqual([
      ['batch_normalization/gamma:0', true, [3]],
      ['batch_normalization/beta:0', true, [3]],
      ['batch_normalization/moving_mean:0', false, [3]],
      ['batch_normalization/moving_variance:0', false, [3]],
    ]);
    expect(bn.trainableWeights).toEqual([bn.gamma, bn.beta]);
    expect(bn.nonTrainableWeights).toEqual([bn.movingMean, bn.movingVariance]);
    expect(bn.countParams()).toBe(12);
  });

  it('without center and scale keeps only the moving statistics', () => {
    const bn = new BatchNormalization({ center: false, scale: false, axis: 1 });
    bn.build([null, 4, 2]);
    expect(bn.namedWeights.map((w) => w.name)).toEqual([
      'batch_normalization/moving_mean:0',
      'batch_normalization/moving_variance:0',
    ]);
  });

  it('does not move its statistics when not trainable, even in training', async () => {
    const bn = new BatchNormalization({ momentum: 0.5, trainable: false });
    const x = ops.fromData(
      [
        [1, 2],
        [3, 6],
      ],
      { device },
    );
    bn(x, { training: true });
    expect(Array.from(await (bn.movingMean as Tensor).data())).toEqual([0, 0]);
  });

  it('refuses what it does not support', () => {
    expect(() => new BatchNormalization({ gammaRegularizer: 'l2' })).toThrow(
      'BatchNormalization: gammaRegularizer is not supported',
    );
    expect(() => new BatchNormalization({ synchronized: true })).toThrow(/synchronized=True/);
  });
});

describe('masks and shapes', () => {
  it('passes a mask on where Keras does', () => {
    const emb = new Embedding(5, 4, { maskZero: true });
    const x = emb(ops.fromData([[1, 2, 0]], { dtype: 'int32', device }));
    expect(kerasMask(x)).not.toBeNull();
    for (const layer of [
      new BatchNormalization(),
      new LayerNormalization(),
      new Dropout(0.5),
      new Activation('relu'),
    ]) {
      expect(kerasMask(layer(x)), layer.className).not.toBeNull();
    }
    for (const layer of [
      new Flatten(),
      new layers.GlobalAveragePooling1D(),
      new layers.GlobalMaxPooling1D(),
      new layers.AveragePooling1D(),
      new Reshape([4, 3]),
    ]) {
      expect(kerasMask(layer(x)), layer.className).toBeNull();
    }
    // Keras adds a Softmax's mask to its input: a [batch, steps] mask fits [batch, steps, steps].
    expect(() => new layers.Softmax()(x)).toThrow(
      'softmax: its mask of shape (1, 3) does not broadcast against the input of shape (1, 3, 4)',
    );
  });

  it('computes output shapes with unknown sizes', () => {
    expect(new Reshape([-1, 2]).computeOutputShape([null, 3, 4])).toEqual([null, 6, 2]);
    expect(new Reshape([-1, 2]).computeOutputShape([null, null, 4])).toEqual([null, null, 2]);
    expect(
      new layers.AvgPool2D(2, { padding: 'same' }).computeOutputShape([null, 5, 7, 3]),
    ).toEqual([null, 3, 4, 3]);
    expect(
      new layers.GlobalMaxPool2D({ keepdims: true }).computeOutputShape([null, 5, 7, 3]),
    ).toEqual([null, 1, 1, 3]);
  });

  it("has Keras's aliases", () => {
    expect(layers.AvgPool1D).toBe(layers.AveragePooling1D);
    expect(layers.GlobalAvgPool2D).toBe(layers.GlobalAveragePooling2D);
    expect(layers.GlobalMaxPool1D).toBe(layers.GlobalMaxPooling1D);
    expect(new layers.AvgPool2D().className).toBe('AveragePooling2D');
  });
});
