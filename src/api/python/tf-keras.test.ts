/**
 * `tensorflow.keras` and `tf.data` in Python (src/api/python/tensorflow/keras, _js_object.py):
 * the TS tf layer's Keras under TensorFlow's Python names, on every test device. A Python Keras
 * model trains to the same first-epoch losses as the same model built in TypeScript from the same
 * seed (so the same weights and data).
 */
import { describe, expect, it } from 'vitest';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { setAssetReader } from '../../engine/data/datasets';
import { tf } from '../tf';
import {
  PYTHON_CLASSIFIER_CODE,
  startTfPython,
  tfName,
  typescriptClassifier,
} from './testing/tf-python';
import { CREATE_MODEL_CODE, printbarCode, REUTERS_DATA_CODE } from './testing/tf-chapter-code';

setAssetReader(builtDataReader());
const { devices, python } = await startTfPython();

/** The TypeScript cell: data and model from the seed, one epoch, the weights and History. */
async function typescriptRun(device: string, seed: number) {
  return tf.device(tfName(device), async () => {
    tf.keras.backend.clearSession();
    tf.random.setSeed(seed);
    const x = tf.random.uniform([48, 6], -1, 1);
    const y = tf.random.uniform([48], 0, 4, 'int32');
    const model = typescriptClassifier();
    const weights = await Promise.all(model.trainableVariables.map((w) => w.tolist()));
    const ds = tf.data.Dataset.fromTensorSlices([x, y]).batch(16);
    const history = await model.fit(ds, { validationData: ds, epochs: 1, verbose: 0 });
    return { weights, history: history.history };
  });
}

const PYTHON_RUN = (device: string, seed: number): string => `
with tf.device("${tfName(device)}"):
    tf.keras.backend.clear_session()
    tf.random.set_seed(${seed})
    x = tf.random.uniform((48, 6), minval=-1, maxval=1)
    y = tf.random.uniform((48,), minval=0, maxval=4, dtype=tf.int32)
${PYTHON_CLASSIFIER_CODE}
    weights = [w.numpy() for w in model.trainable_variables]
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    history = model.fit(ds, validation_data=ds, epochs=1, verbose=0)
{"weights": weights, "history": dict(history.history)}
`;

describe.each(devices.map((d) => d.name))('tensorflow.keras on %s', (device) => {
  it("a Python Keras model's first-epoch losses equal the TypeScript model's (same seed and weights)", async () => {
    const ts = await typescriptRun(device, 29);
    const py = (await python.run(PYTHON_RUN(device, 29))) as typeof ts;
    expect(py.weights).toEqual(ts.weights);
    expect(Object.keys(py.history).sort()).toEqual(Object.keys(ts.history).sort());
    for (const key of ['loss', 'val_loss', 'sparse_categorical_accuracy']) {
      const a = py.history[key] as number[];
      const b = ts.history[key] as number[];
      expect(a).toHaveLength(1);
      expect(Math.abs(a[0] - b[0])).toBeLessThanOrEqual(1e-6);
    }
    expect(py.history.loss[0]).toBeGreaterThan(0.5);
  });

  it('fit on a shuffled, batched, prefetched, cached dataset; evaluate, predict, summary, metrics, apply_gradients', async () => {
    const printed = await python.output(`
with tf.device("${tfName(device)}"):
    tf.keras.backend.clear_session()
    tf.random.set_seed(4)
    x = tf.random.uniform((40, 5), minval=-1.0, maxval=1.0)
    y = tf.random.uniform((40,), minval=0, maxval=3, dtype=tf.int32)
    ds = tf.data.Dataset.from_tensor_slices((x, y)) \\
        .shuffle(buffer_size=100).batch(8) \\
        .prefetch(tf.data.experimental.AUTOTUNE).cache()
    shapes = [(f.shape.as_list(), l.shape.as_list()) for f, l in ds]
    model = models.Sequential()
    model.add(layers.Dense(3, input_shape=(5,)))
    model.summary()
    model.compile(optimizer=optimizers.Adam(learning_rate=0.01),
                  loss=losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[metrics.SparseCategoricalAccuracy(), metrics.SparseTopKCategoricalAccuracy(2)])
    history = model.fit(ds, validation_data=ds, epochs=2, verbose=0)
    print(shapes[0], len(shapes))
    print(sorted(history.history), len(history.history["loss"]))
    result = model.evaluate(ds, verbose=0)
    print(len(result), abs(result[0] - history.history["val_loss"][-1]) < 1e-5)
    logits = model.predict(x, verbose=0)
    print(logits.shape)

    # The loss by hand from predict's logits, and a metric object against plain Python.
    import math
    rows, labels = logits.numpy(), y.numpy()
    nll = [math.log(sum(math.exp(v) for v in r)) - r[l] for r, l in zip(rows, labels)]
    print(abs(sum(nll) / len(nll) - result[0]) < 1e-4)
    acc = metrics.SparseCategoricalAccuracy()
    acc.update_state(y, logits)
    right = sum(1 for r, l in zip(rows, labels) if r.index(max(r)) == l) / len(labels)
    print(abs(acc.result().numpy() - right) < 1e-6, abs(acc.result().numpy() - result[1]) < 1e-6)
    acc.reset_states()
    mean = metrics.Mean()
    mean.update_state(tf.constant([1.5, 2.5, 4.0]))
    print(mean.result().numpy())

    # A GradientTape step through a Keras optimizer: w ← w − lr·g for SGD.
    opt = optimizers.SGD(learning_rate=0.5)
    before = [w.numpy() for w in model.trainable_variables]
    with tf.GradientTape() as tape:
        loss = losses.SparseCategoricalCrossentropy(from_logits=True)(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    after = [w.numpy() for w in model.trainable_variables]
    g = [t.numpy() for t in grads]
    print(all(abs(a - (b0 - 0.5 * gg)) < 1e-5 for a, b0, gg in zip(after[1], before[1], g[1])))
    print(max(abs(v) for v in g[1]) > 0)
`);
    const lines = printed.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Model: "sequential"',
      '_________________________________________________________________',
      'Layer (type)                 Output Shape              Param #   ',
    ]);
    expect(printed).toContain('Total params: 18');
    expect(lines.slice(-10)).toEqual([
      '([8, 5], [8]) 5',
      "['loss', 'sparse_categorical_accuracy', 'sparse_top_k_categorical_accuracy', 'val_loss', 'val_sparse_categorical_accuracy', 'val_sparse_top_k_categorical_accuracy'] 2",
      '3 True',
      'TensorShape([40, 3])',
      'True',
      'True True',
      '2.6666667461395264',
      'True',
      'True',
      '',
    ]);
  });
});

describe('tensorflow.keras names', () => {
  it('imports Keras names from their modules as TensorFlow code does', async () => {
    const r = await python.run(`
from tensorflow.keras.layers import Dense
from tensorflow.keras import Sequential, layers as L
import tensorflow.keras.optimizers as O
model = Sequential([Dense(2, input_shape=(3,))])
out = model.predict(tf.random.uniform((4, 3)), verbose=0)
[L is layers, out.shape.as_list(), type(O.SGD()).__name__, str(tf.constant(1.0)), repr(tf.constant(True))]
`);
    expect(r).toEqual([
      true,
      [4, 2],
      'JsObject',
      'tf.Tensor(1.0, shape=(), dtype=float32)',
      '<tf.Tensor: shape=(), dtype=bool, numpy=True>',
    ]);
  });
});

describe('tensorflow.keras datasets and preprocessing', () => {
  it('reuters.load_data and pad_sequences as the chapter uses them; mnist.load_data', async () => {
    const r = await python.run(`
MAX_LEN = 300
(x_train, y_train), (x_test, y_test) = datasets.reuters.load_data()
n_train, n_test = len(x_train), len(x_test)
x_train = preprocessing.sequence.pad_sequences(x_train[:320], maxlen=MAX_LEN)
MAX_WORDS = x_train.max() + 1
CAT_NUM = y_train.max() + 1
(m_train, my_train), (m_test, my_test) = datasets.mnist.load_data(limit=50)
[n_train + n_test, x_train.shape.as_list(), int(MAX_WORDS) > 1000, int(CAT_NUM) == max(y_train.numpy()) + 1, m_train.shape.as_list(), my_test[0].numpy()]
`);
    expect(r).toEqual([12565, [320, 300], true, true, [50, 28, 28], 7]);
  });
});

describe('tensorflow.keras.datasets: fashion_mnist, and what is not bundled', () => {
  it('fashion_mnist.load_data() as mnist.load_data(); cifar10.load_data() says it is not bundled', async () => {
    const r = await python.run(`
from tensorflow.keras.datasets import fashion_mnist
(f_train, fy_train), (f_test, fy_test) = fashion_mnist.load_data(limit=20)
try:
    tf.keras.datasets.cifar10.load_data()
    cifar = None
except RuntimeError as error:
    cifar = str(error)
[f_train.shape.as_list(), f_train.dtype.name, fy_train.shape.as_list(), f_test.shape.as_list(), int(fy_test[0].numpy()), int(f_train.max()), cifar]
`);
    const [trainShape, dtype, labelShape, testShape, firstTest, max, cifar] = r as unknown[];
    expect([trainShape, dtype, labelShape, testShape, firstTest, max]).toEqual([
      [20, 28, 28],
      'int32',
      [20],
      [20, 28, 28],
      9,
      255,
    ]);
    expect(cifar).toMatch(
      /^tf\.keras\.datasets\.cifar10: gpubook does not bundle this dataset, and nothing can be downloaded from the notebook.*The bundled datasets are mnist, fashion_mnist/,
    );
  });
});

describe("the single-GPU chapter's GradientTape loop", () => {
  it('trains with train_step/valid_step, Keras metrics and the printbar logs, as written', async () => {
    const printed = await python.output(`
${printbarCode()}

${REUTERS_DATA_CODE}

tf.keras.backend.clear_session()
${CREATE_MODEL_CODE}
model = create_model()

optimizer = optimizers.Nadam()
loss_func = losses.SparseCategoricalCrossentropy()
train_loss = metrics.Mean(name='train_loss')
train_metric = metrics.SparseCategoricalAccuracy(name='train_accuracy')
valid_loss = metrics.Mean(name='valid_loss')
valid_metric = metrics.SparseCategoricalAccuracy(name='valid_accuracy')

@tf.function
def train_step(model, features, labels):
    with tf.GradientTape() as tape:
        predictions = model(features,training = True)
        loss = loss_func(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_loss.update_state(loss)
    train_metric.update_state(labels, predictions)

@tf.function
def valid_step(model, features, labels):
    predictions = model(features)
    batch_loss = loss_func(labels, predictions)
    valid_loss.update_state(batch_loss)
    valid_metric.update_state(labels, predictions)

def train_model(model,ds_train,ds_valid,epochs):
    for epoch in tf.range(1,epochs+1):
        for features, labels in ds_train:
            train_step(model,features,labels)
        for features, labels in ds_valid:
            valid_step(model,features,labels)
        logs = 'Epoch={},Loss:{},Accuracy:{},Valid Loss:{},Valid Accuracy:{}'
        if epoch%1 ==0:
            printbar()
            tf.print(tf.strings.format(logs,
            (epoch,train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result())))
            tf.print("")
        train_loss.reset_states()
        valid_loss.reset_states()
        train_metric.reset_states()
        valid_metric.reset_states()

train_model(model,ds_train,ds_test,2)
`);
    const lines = printed.split('\n');
    expect(lines).toHaveLength(7);
    for (const epoch of [1, 2]) {
      const [bar, log, blank] = lines.slice(3 * (epoch - 1), 3 * epoch);
      expect(bar).toMatch(/^={80}\d\d:\d\d:\d\d$/);
      expect(log).toMatch(
        new RegExp(
          `^Epoch=${epoch},Loss:\\d+\\.\\d+,Accuracy:[01](\\.\\d+)?,Valid Loss:\\d+\\.\\d+,Valid Accuracy:[01](\\.\\d+)?$`,
        ),
      );
      expect(blank).toBe('');
    }
  }, 180_000);
});
