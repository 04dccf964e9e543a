/**
 * Keras's normalisation, pooling and shaping layers (BatchNormalization in training over two
 * steps and in inference, LayerNormalization, Softmax, Reshape, Rescaling, AveragePooling1D/2D,
 * GlobalAverage/MaxPooling1D/2D, masks from Embedding(mask_zero=True)) against float64 NumPy
 * implementations of their documented formulas, from the same weights (set_weights) and inputs:
 * outputs, the moving statistics, and GradientTape's gradients for inputs and weights. Then what
 * Keras prints: a Sequential's summary with BatchNormalization's non-trainable parameters, the
 * weights' names, and the errors for inputs a layer does not fit.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_norm_pool_program.py?raw';
import REFERENCE from './testing/keras_norm_pool_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3707);
/** Nested arrays of the given shape, uniform in [lo, hi). */
const tensor = (shape: number[], lo = -2, hi = 2): unknown =>
  shape.length === 0
    ? lo + rand() * (hi - lo)
    : Array.from({ length: shape[0] }, () => tensor(shape.slice(1), lo, hi));
const INPUT = {
  x3: tensor([2, 3, 4]),
  x3b: tensor([2, 3, 4], -1, 3),
  seq: tensor([2, 6, 3]),
  img: tensor([2, 5, 5, 2]),
  table: tensor([7, 4]),
  ids: [
    [3, 1, 4, 0, 0],
    [2, 6, 5, 1, 0],
  ],
  gamma4: tensor([4], 0.5, 1.5),
  beta4: tensor([4], -0.5, 0.5),
  mean4: tensor([4], -0.5, 0.5),
  var4: tensor([4], 0.5, 2),
  gamma3: tensor([3], 0.5, 1.5),
  beta3: tensor([3], -0.5, 0.5),
  mean3: tensor([3], -0.5, 0.5),
  var3: tensor([3], 0.5, 2),
  gamma34: tensor([3, 4], 0.5, 1.5),
  beta34: tensor([3, 4], -0.5, 0.5),
  upstream: tensor([200], -1, 1),
};

type Result = Record<string, number[]>;

describeAgainstFormulas<Result>(
  'keras-norm-pool.test.ts',
  'Keras normalisation, pooling and shaping layers against their documented formulas (float64 NumPy)',
  'values, moving statistics and gradients agree on %s',
  {
    python,
    ours: OURS,
    reference: REFERENCE,
    input: INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expect(Object.keys(ours).sort()).toEqual(Object.keys(reference).sort());
    for (const key of Object.keys(reference)) expectNear(ours[key], reference[key], 1e-4, key);
  },
);

describe('what Keras prints for these layers', () => {
  it('summary counts the moving statistics as non-trainable', async () => {
    const printed = await python.output(`
tf.keras.backend.clear_session()
model = models.Sequential([
    layers.Dense(8, input_shape=(5,)),
    layers.BatchNormalization(),
    layers.Reshape((2, 4)),
    layers.LayerNormalization(),
    layers.GlobalAveragePooling1D(),
    layers.Softmax(),
])
model.summary()
print(len(model.trainable_weights), len(model.non_trainable_weights))
`);
    expect(printed).toBe(
      [
        'Model: "sequential"',
        '_________________________________________________________________',
        'Layer (type)                 Output Shape              Param #   ',
        '=================================================================',
        'dense (Dense)                (None, 8)                 48        ',
        '_________________________________________________________________',
        'batch_normalization (BatchNo (None, 8)                 32        ',
        '_________________________________________________________________',
        'reshape (Reshape)            (None, 2, 4)              0         ',
        '_________________________________________________________________',
        'layer_normalization (LayerNo (None, 2, 4)              8         ',
        '_________________________________________________________________',
        'global_average_pooling1d (Gl (None, 4)                 0         ',
        '_________________________________________________________________',
        'softmax (Softmax)            (None, 4)                 0         ',
        '=================================================================',
        'Total params: 88',
        'Trainable params: 72',
        'Non-trainable params: 16',
        '_________________________________________________________________',
        '6 2',
        '',
      ].join('\n'),
    );
  });

  it('fit moves the statistics, predict and evaluate use them', async () => {
    const printed = await python.output(`
tf.keras.backend.clear_session()
tf.random.set_seed(5)
x = tf.random.normal((32, 3), mean=2.0, stddev=3.0)
y = tf.random.normal((32, 1))
model = models.Sequential([layers.BatchNormalization(momentum=0.5, input_shape=(3,)), layers.Dense(1)])
model.compile(optimizer=optimizers.SGD(learning_rate=0.0), loss="mse")
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
bn = model.layers[0]
mean = [float(v) for v in bn.moving_mean.numpy()]
batch_mean = [float(v) for v in tf.reduce_mean(x, axis=0).numpy()]
# Three steps of moving * 0.5 + batch * 0.5 from 0: 7/8 of the batch mean.
print(all(abs(m - 0.875 * b) < 1e-4 for m, b in zip(mean, batch_mean)))
expected = bn(x, training=False)
by_hand = (x - bn.moving_mean) / tf.sqrt(bn.moving_variance + 1e-3) * bn.gamma + bn.beta
print(float(tf.reduce_max(tf.abs(expected - by_hand))) < 1e-5)
before = [float(v) for v in bn.moving_mean.numpy()]
model.predict(x, verbose=0)
model.evaluate(x, y, verbose=0)
print(before == [float(v) for v in bn.moving_mean.numpy()])
`);
    expect(printed).toBe('True\nTrue\nTrue\n');
  });

  it('inputs a layer does not fit raise errors naming the layer and the shape', async () => {
    const printed = await python.output(`
tf.keras.backend.clear_session()
def error(fn, kind=True):
    try:
        fn()
    except Exception as e:
        print((type(e).__name__ + ": " if kind else "") + str(e))

bn = layers.BatchNormalization()
bn(tf.zeros((2, 4)))
error(lambda: bn(tf.zeros((2, 3))))
error(lambda: bn(tf.zeros((2, 3, 4))))
error(lambda: layers.GlobalAveragePooling2D()(tf.zeros((2, 3, 4))))
error(lambda: layers.Reshape((5, -1))(tf.zeros((2, 3, 4))))
error(lambda: layers.Reshape((5, 2))(tf.zeros((2, 3, 4))))
error(lambda: layers.Reshape((-1, -1))(tf.zeros((2, 3, 4))))
error(lambda: layers.AveragePooling1D(4)(tf.zeros((2, 3, 4))))
error(lambda: layers.LayerNormalization(axis=3)(tf.zeros((2, 3, 4))))
`);
    expect(printed.split('\n')).toEqual([
      'ValueError: Input 0 of layer "batch_normalization" is incompatible with the layer: expected axis -1 of input shape to have value 4, but received input with shape (2, 3)',
      'ValueError: Input 0 of layer "batch_normalization" is incompatible with the layer: expected ndim=2, found ndim=3. Full shape received: (2, 3, 4)',
      'ValueError: Input 0 of layer "global_average_pooling2d" is incompatible with the layer: expected ndim=4, found ndim=3. Full shape received: (2, 3, 4)',
      'ValueError: The total size of the tensor must be unchanged, however, the input size cannot by divided by the specified dimensions in target_shape. Received: input_shape=(3, 4), target_shape=(5, -1)',
      'ValueError: The total size of the tensor must be unchanged. Received: input_shape=(3, 4), target_shape=(5, 2)',
      'ValueError: There must be at most one unknown dimension (-1) in target_shape. Received: target_shape=(-1, -1).',
      "ValueError: average_pooling1d: the input is 3 long along spatial axis 1, shorter than the pool size 4 with padding='valid'. Received input shape: (2, 3, 4)",
      'ValueError: layer_normalization: invalid axis 3 for an input of rank 3. Received input shape: (None, 3, 4)',
      '',
    ]);
  });
});
