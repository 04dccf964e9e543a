/**
 * What the Python Keras tests share: TensorFlow's name for a test device, a Python over the TS tf
 * layer with tensorflow imported as the chapters import it, and a seeded regression model.
 */
import type { Device } from '../../../engine';
import { testDevices } from '../../../engine/testing/devices';
import { tf } from '../../tf';
import { startPython, type TestPython } from './pyodide';

/** TensorFlow's name of a test device: `/cpu:0`, `/gpu:0` (a name with an index keeps it). */
export const tfName = (device: string): string =>
  `/${device.includes(':') ? device : `${device}:0`}`;

/**
 * The test devices, and a Python with the TS tf layer that has run `imports` (Python lines, if
 * any) and then `import tensorflow as tf` and `from tensorflow.keras import *`.
 */
export async function startTfPython(
  imports = '',
): Promise<{ devices: Device[]; python: TestPython }> {
  const devices = await testDevices();
  const python = await startPython({ tf });
  await python.run(`${imports}import tensorflow as tf\nfrom tensorflow.keras import *`);
  return { devices, python };
}

/**
 * Python: on `device`, after seeding with `seed`, x [n, 3] and y [n, 2] uniform in [-1, 1) and
 * `model`, one Dense(2) on 3 inputs, compiled with `compileArgs`.
 */
export const denseRegressionCode = (
  device: string,
  seed: number,
  n: number,
  compileArgs: string,
): string => `with tf.device("${tfName(device)}"):
    tf.keras.backend.clear_session()
    tf.random.set_seed(${seed})
    x = tf.random.uniform((${n}, 3), minval=-1, maxval=1)
    y = tf.random.uniform((${n}, 2), minval=-1, maxval=1)
    model = models.Sequential()
    model.add(layers.Dense(2, input_shape=(3,)))
    model.compile(${compileArgs})`;

/**
 * The classifier both sides of a Python-against-TypeScript test build: Dense(12, relu) on 6
 * inputs, Dense(4) logits, compiled with Nadam, sparse cross-entropy from logits and accuracy.
 */
export function typescriptClassifier() {
  const model = new tf.keras.models.Sequential();
  model.add(new tf.keras.layers.Dense(12, { activation: 'relu', inputShape: [6] }));
  model.add(new tf.keras.layers.Dense(4));
  model.compile({
    optimizer: new tf.keras.optimizers.Nadam(),
    loss: new tf.keras.losses.SparseCategoricalCrossentropy({ fromLogits: true }),
    metrics: [new tf.keras.metrics.SparseCategoricalAccuracy()],
  });
  return model;
}

/** typescriptClassifier in Python, as `model` (indented 4 spaces, for a `with` block). */
export const PYTHON_CLASSIFIER_CODE = `    model = models.Sequential()
    model.add(layers.Dense(12, activation="relu", input_shape=(6,)))
    model.add(layers.Dense(4))
    model.compile(optimizer=optimizers.Nadam(),
                  loss=losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[metrics.SparseCategoricalAccuracy()])`;
