/**
 * The lines at the top of real TensorFlow notebooks, in Python: `tf.keras.utils`
 * (`to_categorical` and `normalize` against float64 NumPy, `set_random_seed`, `plot_model` as an
 * SVG the notebook shows, `get_file`'s offline error), `tf.test`'s GPU checks and
 * `tf.keras.backend`'s constants; Keras 3's `import keras` and `keras.ops` (values and gradients
 * against float64 NumPy).
 */
import { describe, expect, it } from 'vitest';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import UTILS from './testing/keras_utils_program.py?raw';
import UTILS_REFERENCE from './testing/keras_utils_reference.py?raw';
import OPS from './testing/keras_ops_program.py?raw';
import OPS_REFERENCE from './testing/keras_ops_reference.py?raw';
import ACTIVATIONS from './testing/keras_activations_program.py?raw';
import ACTIVATIONS_REFERENCE from './testing/keras_activations_reference.py?raw';

const { devices, python } = await startTfPython();
setAssetReader(builtDataReader());
const hasGpu = devices.some((d) => d.kind === 'gpu');
const rand = rng(3701);
const matrix = (rows: number, cols: number, scale: number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rand() * 2 - 1) * scale));

interface UtilsResult {
  inferred: number[];
  inferred_shape: number[];
  given: number[];
  given_shape: number[];
  unit: number[];
  first: number[];
  grad: number[];
}

describeAgainstFormulas<UtilsResult>(
  'keras-boilerplate.test.ts',
  'tf.keras.utils.to_categorical and normalize against NumPy (np.eye, float64 norms)',
  'values and gradients agree on %s',
  {
    python,
    ours: UTILS,
    reference: UTILS_REFERENCE,
    input: {
      labels: [3, 0, 4, 1, 1, 2, 4],
      classes: 7,
      x: matrix(4, 3, 2),
      upstream: matrix(4, 3, 1),
    },
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expect(ours.inferred_shape).toEqual(reference.inferred_shape);
    expect(ours.inferred).toEqual(reference.inferred);
    expect(ours.given_shape).toEqual(reference.given_shape);
    expect(ours.given).toEqual(reference.given);
    expectNear(ours.unit, reference.unit, 1e-4, 'normalize(order=2)');
    expectNear(ours.first, reference.first, 1e-4, 'normalize(axis=0, order=1)');
    expectNear(ours.grad, reference.grad, 1e-4, 'd/dx');
  },
);

describe('tf.keras.utils in Python', () => {
  it('set_random_seed makes Python random and tf.random repeat; a non-int seed is ValueError', async () => {
    const r = (await python.run(`
import random
def draw():
    return [random.random(), tf.random.uniform((3,)).numpy(), tf.random.normal((2,)).numpy()]
tf.keras.utils.set_random_seed(1234)
a = draw()
tf.keras.utils.set_random_seed(1234)
b = draw()
c = draw()
try:
    tf.keras.utils.set_random_seed(1.5)
    err = "no error"
except ValueError as e:
    err = str(e)
[a == b, a == c, err]
`)) as unknown[];
    expect(r).toEqual([
      true,
      false,
      "Expected `seed` argument to be an integer. Received: seed=1.5 (of type <class 'float'>)",
    ]);
  });

  it('plot_model returns an SVG of the layers, writes .svg files, and refuses unbuilt models', async () => {
    const r = (await python.run(`
from IPython.core.formatters import format_display_data
tf.keras.backend.clear_session()
model = models.Sequential()
model.add(layers.Dense(4, activation="relu", input_shape=(3,)))
model.add(layers.Dense(2))
img = tf.keras.utils.plot_model(model, to_file="model.svg", show_shapes=True, show_layer_activations=True)
bundle, _ = format_display_data(img)
svg = bundle["image/svg+xml"]
plain = tf.keras.utils.plot_model(model, show_layer_names=False)._repr_svg_()
with open("model.svg") as f:
    written = f.read()
unbuilt = models.Sequential([layers.Dense(2)])
try:
    tf.keras.utils.plot_model(unbuilt)
    err = "no error"
except ValueError as e:
    err = str(e)
import re
texts = re.findall(r">([^<>]+)</text>", svg)
[type(img).__name__, svg.startswith("<svg"), texts, svg.count("<line"), re.findall(r">([^<>]+)</text>", plain), written == svg, err]
`)) as unknown[];
    expect(r).toEqual([
      'SVG',
      true,
      [
        'dense (Dense)',
        'Input shape: (None, 3)',
        'Output shape: (None, 4)',
        'Activation: relu',
        'dense_1 (Dense)',
        'Input shape: (None, 4)',
        'Output shape: (None, 2)',
        'Activation: linear',
      ],
      1,
      ['Dense', 'Dense'],
      true,
      'This model has not yet been built. Build the model first by calling `build()` or by calling the model on a batch of data.',
    ]);
  });

  it("plot_model draws a functional model's graph: branches, a merge, Keras's shapes", async () => {
    const r = (await python.run(`
import keras, re
keras.backend.clear_session()
inputs = keras.Input(shape=(4,), name="features")
a = keras.layers.Dense(3, name="a")(inputs)
b = keras.layers.Dense(2, name="b")(inputs)
merged = keras.layers.Concatenate(name="merged")([a, b])
outputs = keras.layers.Dense(1, name="out")(merged)
model = keras.Model(inputs, outputs)
svg = keras.utils.plot_model(model, show_shapes=True, show_layer_names=True, rankdir="LR")._repr_svg_()
texts = re.findall(r">([^<>]+)</text>", svg)
lines = re.findall(r'<line x1="([\\d.]+)" y1="([\\d.]+)" x2="([\\d.]+)" y2="([\\d.]+)"', svg)
boxes = re.findall(r'<rect x="([\\d.]+)" y="([\\d.]+)"', svg)
# Left to right: every arrow goes right, and a and b share a column.
[texts, len(lines), all(float(x2) > float(x1) for x1, _, x2, _ in lines), boxes[1][0] == boxes[2][0]]
`)) as unknown[];
    expect(r[0]).toEqual([
      'features (InputLayer)',
      'Input shape: (None, 4)',
      'Output shape: (None, 4)',
      'a (Dense)',
      'Input shape: (None, 4)',
      'Output shape: (None, 3)',
      'b (Dense)',
      'Input shape: (None, 4)',
      'Output shape: (None, 2)',
      'merged (Concatenate)',
      'Input shape: [(None, 3), (None, 2)]',
      'Output shape: (None, 5)',
      'out (Dense)',
      'Input shape: (None, 5)',
      'Output shape: (None, 1)',
    ]);
    expect(r.slice(1)).toEqual([5, true, true]);
  });

  it('get_file says why nothing can be downloaded', async () => {
    const r = await python.run(`
try:
    tf.keras.utils.get_file("flower_photos", origin="https://example.com/flower_photos.tgz", untar=True)
    err = "no error"
except RuntimeError as e:
    err = str(e)
err
`);
    expect(r).toBe(
      "get_file: cannot download 'https://example.com/flower_photos.tgz' (as 'flower_photos'): the " +
        'notebook runs in the browser, with no server to fetch files through. Upload the file ' +
        'into the notebook instead, or use a bundled dataset (tf.keras.datasets.mnist, ' +
        'fashion_mnist, reuters).',
    );
  });
});

describe('tf.test and tf.keras.backend in Python', () => {
  it('reports the GPU tf places tensors on; nothing is CUDA', async () => {
    const r =
      await python.run(`[tf.test.is_gpu_available(), tf.test.is_gpu_available(cuda_only=False),
 tf.test.gpu_device_name(), tf.test.is_built_with_cuda(), tf.test.is_built_with_gpu_support()]`);
    expect(r).toEqual([hasGpu, hasGpu, hasGpu ? '/device:GPU:0' : '', false, true]);
  });

  it("has Keras's backend constants, and clear_session restarts layer names", async () => {
    const r = await python.run(`
from tensorflow.keras import backend as K
layers.Dense(2)
first = layers.Dense(2).name  # at least the second of this session
tf.keras.backend.clear_session()
[K.floatx(), K.epsilon(), K.image_data_format(), first != "dense", layers.Dense(2).name]
`);
    expect(r).toEqual(['float32', 1e-7, 'channels_last', true, 'dense']);
  });
});

interface OpCase {
  y: number[];
  shape: number[];
  grads: number[][];
}
type OpsResult = Record<string, OpCase> & {
  version: string;
  converted: number[][];
  shape: number[];
};
const OP_NAMES = [
  'softmax',
  'log_softmax_axis0',
  'relu',
  'sigmoid',
  'tanh',
  'mean_axis1_keepdims',
  'sum_all',
  'max_axis0',
  'matmul',
  'reshape_expand_transpose',
  'concatenate',
  'stack',
  'sqrt',
  'exp',
  'log',
  'abs',
  'square',
  'clip',
  'where',
  'add_multiply',
  'one_hot',
  'argmax_all',
  'argmax_last_keepdims',
  'cast',
];

describeAgainstFormulas<OpsResult>(
  'keras-boilerplate.test.ts',
  'import keras: keras.ops against their documented formulas (float64 NumPy)',
  'values and gradients agree on %s',
  {
    python,
    ours: OPS,
    reference: OPS_REFERENCE,
    input: {
      x: matrix(4, 3, 2),
      w: matrix(3, 2, 1),
      y: matrix(4, 3, 2),
      p: matrix(4, 3, 1).map((row) => row.map((v) => Math.abs(v) + 0.1)),
      upstream: matrix(1, 64, 1)[0],
      labels: [4, 0, 2, 2, 1],
    },
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    for (const name of OP_NAMES) {
      const [o, r] = [ours[name], reference[name]];
      expect(o.shape, `${name} shape`).toEqual(r.shape);
      expectNear(o.y, r.y, 1e-4, name);
      expect(o.grads.length, `${name} gradients`).toBe(r.grads.length);
      o.grads.forEach((g, i) => expectNear(g, r.grads[i], 1e-4, `${name} d/dinput${i}`));
    }
    expect(ours.version).toBe(reference.version);
    expect(ours.converted).toEqual(reference.converted);
    expect(ours.shape).toEqual(reference.shape);
  },
);

describeAgainstFormulas<Record<string, { y: number[]; grad: number[] }>>(
  'keras-boilerplate.test.ts',
  'keras.activations (Keras arguments) and Dense activations by name against float64 NumPy',
  'values and gradients agree on %s',
  {
    python,
    ours: ACTIVATIONS,
    reference: ACTIVATIONS_REFERENCE,
    input: { x: matrix(5, 4, 2.5), upstream: matrix(5, 4, 1), kernel: matrix(4, 3, 0.8) },
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expect(Object.keys(ours).sort()).toEqual(Object.keys(reference).sort());
    for (const [name, r] of Object.entries(reference)) {
      expectNear(ours[name].y, r.y, 1e-4, name);
      expectNear(ours[name].grad, r.grad, 1e-4, `${name} d/dx`);
    }
  },
);

describe('import keras (Keras 3 spelling) in Python', () => {
  it('reaches the same Keras as tf.keras: layers, Sequential, Model, backend, utils', async () => {
    const r = await python.run(`
import keras
from keras import layers
from keras.layers import Dense
keras.backend.clear_session()
model = keras.Sequential([layers.Dense(3, activation="relu", input_shape=(2,)), Dense(1)])
img = keras.utils.plot_model(model)
import re
[keras.__version__, keras.backend.backend(), keras.backend.floatx(), model.name,
 [l.name for l in model.layers], keras.layers.Dense._js == tf.keras.layers.Dense._js,
 keras.Model is tf.keras.Model, re.findall(r">([^<>]+)</text>", img._repr_svg_()),
 hasattr(keras, "optimizers") and hasattr(keras.optimizers, "Adam"), hasattr(keras.losses, "MeanSquaredError"),
 hasattr(keras.metrics, "SparseCategoricalAccuracy"), hasattr(keras.callbacks, "EarlyStopping"), hasattr(keras.datasets, "mnist")]
`);
    expect(r).toEqual([
      '3.3.3',
      'tensorflow',
      'float32',
      'sequential',
      ['dense', 'dense_1'],
      true,
      true,
      ['Dense', 'Dense'],
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it("maps keras.ops' other names onto tf with Keras's argument conventions", async () => {
    const r = await python.run(`
from keras import ops
x = ops.convert_to_tensor([[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = ops.sum(ops.stop_gradient(x) * x)
[ops.argmin(x, axis=0).numpy(), ops.cumsum(x).numpy(), ops.take(x, [0, 2]).numpy(), ops.take(x, [2, 0], axis=1).numpy(),
 ops.top_k(x, 2).values.numpy(), ops.sort(x).numpy(), ops.arange(1, 10, 3).numpy(), ops.full((2,), 7.0).numpy(),
 ops.shape(x), ops.one_hot(ops.convert_to_tensor([0, 2]), 3, axis=0).numpy(), ops.argmax(x, keepdims=True).numpy(),
 ops.prod(x, axis=1).numpy(), ops.max(x, initial=10.0).numpy(), ops.where(ops.greater(x, 0)).numpy(),
 tape.gradient(y, x).numpy(), ops.mean(x, axis=(0, 1)).numpy(), ops.reshape(x, new_shape=(3, 2)).numpy(),
 ops.dot(x, ops.transpose(x)).numpy(), ops.clip(ops.convert_to_tensor([0, 5, 9]), 1, 6).numpy()]
`);
    expect(r).toEqual([
      [1, 0, 1],
      [1, -1, 2, 2.5, 2.75, 1.75],
      [1, 3],
      [
        [3, 1],
        [-1, 0.5],
      ],
      [
        [3, 1],
        [0.5, 0.25],
      ],
      [
        [-2, 1, 3],
        [-1, 0.25, 0.5],
      ],
      [1, 4, 7],
      [7, 7],
      [2, 3],
      [
        [1, 0],
        [0, 0],
        [0, 1],
      ],
      [[2]],
      [-6, -0.125],
      10,
      [
        [0, 0],
        [0, 2],
        [1, 0],
        [1, 1],
      ],
      [
        [1, -2, 3],
        [0.5, 0.25, -1],
      ],
      0.2916666865348816,
      [
        [1, -2],
        [3, 0.5],
        [0.25, -1],
      ],
      [
        [14, -3],
        [-3, 1.3125],
      ],
      [1, 5, 6],
    ]);
  });

  it("says which name it lacks, as Python's modules do", async () => {
    const r = await python.run(`
try:
    keras.NoSuchThing
    err = "no error"
except AttributeError as e:
    err = str(e)
err
`);
    expect(r).toBe("module 'keras' has no attribute 'NoSuchThing'");
  });
});

describe.each(devices.map((d) => tfName(d.name)))('tf.data from Python on %s', (device) => {
  it('range, repeat, batch, take, skip, unbatch, cache, prefetch match plain Python', async () => {
    const [ours, plain] = (await python.run(`
def py_batch(xs, n, drop_remainder=False):
    out = [xs[i:i + n] for i in range(0, len(xs), n)]
    return out[:-1] if drop_remainder and out and len(out[-1]) < n else out

def seq(ds):
    return [e.numpy() for e in ds]

with tf.device("${device}"):
    x = tf.constant([[float(i), float(-i)] for i in range(7)])
    y = tf.constant(list(range(100, 107)))
    pairs = tf.data.Dataset.from_tensor_slices((x, y))
    cached = tf.data.Dataset.range(6).shuffle(6, seed=3).cache()
    ours = [
        seq(tf.data.Dataset.range(2, 11, 3)),
        seq(tf.data.Dataset.range(5).repeat(3).batch(4)),
        seq(tf.data.Dataset.range(5).batch(4, drop_remainder=True).repeat(2)),
        seq(tf.data.Dataset.range(10).skip(2).take(5)),
        seq(tf.data.Dataset.range(10).repeat().skip(8).take(4)),
        [[a.numpy(), b.numpy()] for a, b in pairs.batch(3).unbatch()],
        list(pairs.batch(3).prefetch(tf.data.AUTOTUNE).as_numpy_iterator())[-1],
        seq(cached) == seq(cached),
        len(tf.data.Dataset.range(5).repeat(3).batch(4)),
        [tf.data.AUTOTUNE, tf.data.experimental.AUTOTUNE],
    ]
xs = list(range(5))
plain = [
    list(range(2, 11, 3)),
    py_batch(xs * 3, 4),
    py_batch(xs, 4, drop_remainder=True) * 2,
    list(range(10))[2:][:5],
    (list(range(10)) * 2)[8:12],
    [[[float(i), float(-i)], 100 + i] for i in range(7)],
    [[[6.0, -6.0]], [106]],
    True,
    len(py_batch(xs * 3, 4)),
    [-1, -1],
]
[ours, plain]
`)) as [unknown[], unknown[]];
    expect(ours).toEqual(plain);
  });
});

describe('Fashion-MNIST as the Keras tutorial loads it', () => {
  it('tensors index Python lists as NumPy scalars do: integer scalars only', async () => {
    const r = await python.run(`
names = ["a", "b", "c"]
errors = []
for bad in (tf.constant(1.0), tf.constant([1])):
    try:
        names[bad]
    except TypeError as e:
        errors.append(str(e))
[names[tf.constant(2)], errors]
`);
    expect(r).toEqual([
      'c',
      [
        'only integer scalar arrays can be converted to a scalar index',
        'only integer scalar arrays can be converted to a scalar index',
      ],
    ]);
  });

  it('keras.datasets.fashion_mnist.load_data(): 60000 and 10000 images of 28x28, labels 0-9', async () => {
    const r = await python.run(`
import keras
fashion_mnist = keras.datasets.fashion_mnist
(train_images, train_labels), (test_images, test_labels) = fashion_mnist.load_data()
class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
               'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']
out = [tuple(train_images.shape), train_images.dtype.name, tuple(train_labels.shape),
       tuple(test_images.shape), tuple(test_labels.shape), train_labels[:10].numpy(),
       test_labels[:10].numpy(), class_names[train_labels[0]], float(tf.reduce_max(train_images / 255.0)),
       int(tf.reduce_sum(tf.cast(train_labels == 3, "int32")))]
del train_images, test_images
out
`);
    expect(r).toEqual([
      [60000, 28, 28],
      'int32',
      [60000],
      [10000, 28, 28],
      [10000],
      [9, 0, 0, 3, 0, 2, 7, 2, 5, 5],
      [9, 2, 1, 1, 6, 1, 4, 6, 5, 7],
      'Ankle boot',
      1,
      6000,
    ]);
  });
});

describe('keras.utils, keras.saving and keras.random (Keras 3)', () => {
  it('pad_sequences, register_keras_serializable, random draws repeating under set_random_seed', async () => {
    const r = await python.run(`
import keras
padded = keras.utils.pad_sequences([[1, 2, 3], [4]], maxlen=3)

@keras.saving.register_keras_serializable(package="course")
class Scale(keras.layers.Layer):
    pass

keras.utils.set_random_seed(7)
a = [keras.random.normal((2,)).numpy(), keras.random.uniform((2,), minval=1.0, maxval=2.0).numpy(),
     keras.random.randint((3,), 0, 4).numpy()]
keras.utils.set_random_seed(7)
b = [keras.random.normal((2,)).numpy(), keras.random.uniform((2,), minval=1.0, maxval=2.0).numpy(),
     keras.random.randint((3,), 0, 4).numpy()]
[padded.numpy(), Scale.__name__, keras.saving.get_custom_objects(), a == b,
 all(1.0 <= v < 2.0 for v in a[1]), all(v in (0, 1, 2, 3) for v in a[2]), keras.random.randint((3,), 0, 4).dtype.name]
`);
    expect(r).toEqual([
      [
        [1, 2, 3],
        [0, 0, 4],
      ],
      'Scale',
      {},
      true,
      true,
      true,
      'int32',
    ]);
  });
});
