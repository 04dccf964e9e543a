/**
 * The lines at the top of real TensorFlow notebooks, in Python: `tf.keras.utils`
 * (`to_categorical` and `normalize` against float64 NumPy, `set_random_seed`, `plot_model` as an
 * SVG the notebook shows, `get_file`'s offline error), `tf.test`'s GPU checks and
 * `tf.keras.backend`'s constants.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import UTILS from './testing/keras_utils_program.py?raw';
import UTILS_REFERENCE from './testing/keras_utils_reference.py?raw';

const { devices, python } = await startTfPython();
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
first = layers.Dense(2).name
tf.keras.backend.clear_session()
[K.floatx(), K.epsilon(), K.image_data_format(), first != "dense", layers.Dense(2).name]
`);
    expect(r).toEqual(['float32', 1e-7, 'channels_last', true, 'dense']);
  });
});
