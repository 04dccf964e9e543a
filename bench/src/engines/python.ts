/**
 * The same training steps as ./ours.ts, written in Python as a PyTorch user writes them (and the
 * TF chapters' Keras step as ./keras.ts, as a TensorFlow user writes it) and run by Pyodide with
 * gpubook's `torch` and `tensorflow` packages over the same engine on the same WebGPU device: the gap
 * between this engine and `ours-webgpu` is what Python and the Python↔JavaScript crossings cost.
 * Pyodide comes from bench/public/pyodide (copied from node_modules by scripts/bench.mjs), never a
 * CDN; its first-load time is reported in each case's note.
 */
import type { PyodideAPI } from 'pyodide';
import { installPythonPackages } from '../../../src/api/python/install';
import { tf } from '../../../src/api/tf';
import type { CaseSetup } from '../timing';
import { KERAS_TEXT } from './keras';
import { openDevice } from './ours';

type LoadPyodide = (options: { indexURL: string }) => Promise<PyodideAPI>;

/** The steps, as a PyTorch program (the nets and sizes of ./ours.ts). */
const PROGRAM = `
import torch
from torch import nn

dev = torch.device("cuda:0")


def mnist_cnn():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.MaxPool2d(2), nn.Conv2d(32, 64, 5), nn.MaxPool2d(2),
        nn.Dropout2d(0.1), nn.AdaptiveMaxPool2d(1), nn.Flatten(),
        nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10),
    )


class Trainer:
    """One training step: forward, loss, backward, Adam; returns the loss read back."""

    def __init__(self, net, loss_fn, x, y, lr=1e-3):
        self.net = net.to(dev)
        self.loss_fn = loss_fn
        self.x, self.y = x, y
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)

    def __call__(self):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.net(self.x), self.y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


def cnn_step(batch):
    x = torch.randn(batch, 1, 28, 28, device=dev)
    y = (torch.rand(batch, device=dev) * 9.99).int()
    return Trainer(mnist_cnn(), nn.CrossEntropyLoss(), x, y)


def linreg_step(points):
    x = torch.randn(points, 2, device=dev)
    w = torch.tensor([[2.0], [-3.4]], device=dev)
    y = x @ w + 4.2 + torch.randn(points, 1, device=dev) * 0.1
    return Trainer(nn.Linear(2, 1), nn.MSELoss(), x, y, lr=0.03)


def op_crossing(ops):
    x = torch.rand(16, device=dev)

    def run():
        y = x
        for _ in range(ops):
            y = y + 1
        y.tolist()

    return run
`;

/** The TF chapters' GradientTape step as the book writes it in Python (./keras.ts in TypeScript). */
const KERAS_PROGRAM = `
import tensorflow as tf
from tensorflow.keras import layers, losses, models, optimizers


def keras_text_step(batch):
    tf.keras.backend.clear_session()
    tf.random.set_seed(0)
    model = models.Sequential()
    model.add(layers.Embedding(${KERAS_TEXT.words}, 7, input_length=${KERAS_TEXT.length}))
    model.add(layers.Conv1D(filters=64, kernel_size=5, activation="relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Conv1D(filters=32, kernel_size=3, activation="relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Flatten())
    model.add(layers.Dense(${KERAS_TEXT.classes}, activation="softmax"))
    optimizer = optimizers.Nadam()
    loss_func = losses.SparseCategoricalCrossentropy()
    features = tf.random.uniform((batch, ${KERAS_TEXT.length}), minval=0, maxval=${KERAS_TEXT.words}, dtype=tf.int32)
    labels = tf.random.uniform((batch,), minval=0, maxval=${KERAS_TEXT.classes}, dtype=tf.int32)

    def run():
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = loss_func(labels, predictions)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss.numpy()

    return run
`;

export async function pythonCases(): Promise<Record<string, CaseSetup>> {
  await openDevice('webgpu');
  // The bench page is served at its origin's root; this worker's own URL is under assets/.
  const indexURL = new URL('/pyodide/', self.location.origin).href;
  const started = performance.now();
  const loader = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
    loadPyodide: LoadPyodide;
  };
  const py = await loader.loadPyodide({ indexURL });
  // The tensorflow package reaches the TS tf layer as the kernel's cell globals give it.
  installPythonPackages(py, { globals: { tf } });
  await py.runPythonAsync(PROGRAM);
  await py.runPythonAsync(KERAS_PROGRAM);
  const firstLoadMs = performance.now() - started;
  const note = `Pyodide first load with our packages (files cached by the browser after the first run): ${firstLoadMs.toFixed(0)} ms`;
  // Each case keeps its callable in a Python global named after it; a repetition calls it through
  // runPythonAsync, so run_sync (JSPI) can wait for the loss read back, as in a notebook cell.
  const pythonCase =
    (name: string, make: string): CaseSetup =>
    async (params) => {
      const args = Object.values(params).join(', ');
      await py.runPythonAsync(`${name} = ${make}(${args})`);
      return {
        run: async () => {
          await py.runPythonAsync(`${name}()`);
        },
        cleanup: () => void py.runPython(`del ${name}`),
        note,
      };
    };
  return {
    'cnn-step': pythonCase('_cnn', 'cnn_step'),
    'linreg-step': pythonCase('_linreg', 'linreg_step'),
    'op-crossing': pythonCase('_ops', 'op_crossing'),
    'keras-text-step': pythonCase('_keras_text', 'keras_text_step'),
  };
}
