/**
 * `tf.distribute.MirroredStrategy` in Python (src/api/python/tensorflow/distribute.py) on the
 * chapter's two logical GPUs (one WebGPU adapter in Node split in two, on a fresh engine as in
 * src/api/tf-config.test.ts): the same first-epoch losses as the TypeScript cell's strategy, and
 * the chapter's code as written with a smaller dataset.
 */
import { create, globals } from 'webgpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { initEngine } from '../../engine';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { setAssetReader } from '../../engine/data/datasets';
import { tf } from '../tf';
import { startPython } from './testing/pyodide';
import { CREATE_MODEL_CODE, REUTERS_DATA_CODE } from './testing/tf-chapter-code';
import { PYTHON_CLASSIFIER_CODE, typescriptClassifier } from './testing/tf-python';

Object.assign(globalThis, globals);
const gpu = create([]);
setAssetReader(builtDataReader());
const python = await startPython({ tf });

beforeAll(async () => {
  await initEngine({ gpu });
  await python.output(`
import tensorflow as tf
from tensorflow.keras import *
gpus = tf.config.experimental.list_physical_devices('GPU')
tf.config.experimental.set_virtual_device_configuration(gpus[0],
    [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024),
     tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)])
logical_gpus = tf.config.experimental.list_logical_devices('GPU')
print(len(gpus), "Physical GPU,", len(logical_gpus), "Logical GPUs")
`);
});

async function typescriptRun(seed: number) {
  const strategy = new tf.distribute.MirroredStrategy();
  tf.keras.backend.clearSession();
  tf.random.setSeed(seed);
  const x = tf.random.uniform([64, 6], -1, 1);
  const y = tf.random.uniform([64], 0, 4, 'int32');
  const model = await strategy.scope(async () => typescriptClassifier());
  const ds = tf.data.Dataset.fromTensorSlices([x, y]).batch(16);
  const history = await model.fit(ds, { validationData: ds, epochs: 1, verbose: 0 });
  return history.history;
}

describe('tensorflow MirroredStrategy in Python', () => {
  it("trains across the two logical GPUs to the TypeScript strategy's first-epoch losses", async () => {
    const ts = await typescriptRun(17);
    const py = (await python.run(`
strategy = tf.distribute.MirroredStrategy()
tf.keras.backend.clear_session()
tf.random.set_seed(17)
x = tf.random.uniform((64, 6), minval=-1, maxval=1)
y = tf.random.uniform((64,), minval=0, maxval=4, dtype=tf.int32)
with strategy.scope():
${PYTHON_CLASSIFIER_CODE}
    inside = tf.distribute.has_strategy()
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
history = model.fit(ds, validation_data=ds, epochs=1, verbose=0)
{"replicas": strategy.num_replicas_in_sync, "inside": inside, "after": tf.distribute.has_strategy(),
 "weights_on": model.trainable_variables[0].device, "history": dict(history.history)}
`)) as {
      replicas: number;
      inside: boolean;
      after: boolean;
      weights_on: string;
      history: Record<string, number[]>;
    };
    expect([py.replicas, py.inside, py.after]).toEqual([2, true, false]);
    expect(py.weights_on).toBe('/job:localhost/replica:0/task:0/device:GPU:0');
    for (const key of ['loss', 'val_loss', 'sparse_categorical_accuracy']) {
      expect(Math.abs(py.history[key][0] - ts[key][0])).toBeLessThanOrEqual(1e-6);
    }
    expect(py.history.loss[0]).toBeGreaterThan(0.5);
  });

  it("runs the chapter's code as written (a smaller Reuters slice, one epoch)", async () => {
    const printed = await python.output(`
${REUTERS_DATA_CODE}

tf.keras.backend.clear_session()
${CREATE_MODEL_CODE}

def compile_model(model):
    model.compile(optimizer=optimizers.Nadam(),
                loss=losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=[metrics.SparseCategoricalAccuracy(),metrics.SparseTopKCategoricalAccuracy(5)])
    return(model)

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = create_model()
    model.summary()
    model = compile_model(model)

history = model.fit(ds_train,validation_data = ds_test,epochs = 1, verbose = 0)
print(sorted(history.history))
print(strategy.num_replicas_in_sync, len(history.history["loss"]), history.history["loss"][0] > 0, 0 < history.history["val_loss"][0] < 100)
`);
    expect(printed).toContain('Model: "sequential"');
    expect(printed).toContain('embedding (Embedding)');
    expect(printed).toContain(
      "['loss', 'sparse_categorical_accuracy', 'sparse_top_k_categorical_accuracy', 'val_loss', 'val_sparse_categorical_accuracy', 'val_sparse_top_k_categorical_accuracy']",
    );
    expect(printed.trim().split('\n').at(-1)).toBe('2 1 True True');
    // Shader compilation on a software GPU takes most of it; give a loaded machine room.
  }, 180_000);
});
