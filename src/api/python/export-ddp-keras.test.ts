/**
 * The TensorFlow side of the cluster export carries the notebook's weights: a small Keras notebook
 * (Embedding → Conv1D → Flatten → Dense, made in `strategy.scope()`) trains a step in Pyodide over
 * our engine and is exported. The `weights.safetensors` it writes, read back in real Python
 * (/usr/bin/python3: NumPy, no TensorFlow) by a reader written here, holds the model's weights
 * exactly, in Keras's `get_weights()` order and layout — checked against the values read through
 * our `tensorflow` package (`model.weights`, `model.get_weights()`), and the layout by a NumPy forward pass equal to the model's output.
 * The generated train.py compiles, and its own reader (exec'd without TensorFlow) gives the
 * arrays in that order and those shapes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PyCallable, PyDict } from 'pyodide/ffi';
import { describe, expect, it } from 'vitest';
import { getTensorStore } from '../../engine/serialization';
import { tf } from '../tf';
// Run in real Python (NumPy) and in the test's Pyodide: the checks on the export.
import NUMPY_CHECKS from './testing/keras_export_numpy.py?raw';
import PYODIDE_CHECKS from './testing/keras_export_pyodide.py?raw';
import { startPython } from './testing/pyodide';

const PYTHON = '/usr/bin/python3';
const python = await startPython({ tf });

/** Null when /usr/bin/python3 has NumPy, otherwise why not (the skip message). */
function numpyMissing(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import numpy'], { encoding: 'utf8' });
  return probe.status === 0
    ? null
    : `NumPy is not available (${PYTHON} -c "import numpy" failed); install python3-numpy`;
}

/**
 * Runs `name(input)` of testing/keras_export_numpy.py in real Python, with `input` as JSON on
 * stdin; returns its printed JSON.
 */
function realPython(name: string, input: unknown): unknown {
  const result = spawnSync(PYTHON, ['-c', NUMPY_CHECKS, name], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`python3 failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? 'null');
}

/** A function of testing/keras_export_pyodide.py, called in the test's Pyodide. */
function pyodideCheck(name: string): (...args: unknown[]) => Promise<string> {
  const namespace = python.py.toPy({}) as PyDict;
  python.py.runPython(PYODIDE_CHECKS, { globals: namespace });
  const fn = namespace.get(name) as PyCallable;
  namespace.destroy();
  return (...args) => fn.callPromising(...args) as Promise<string>;
}

const CELLS = [
  'import tensorflow as tf\nfrom tensorflow.keras import *\ntf.random.set_seed(5)\nx = tf.random.uniform((32, 10), minval=0, maxval=40, dtype=tf.int32)\ny = tf.random.uniform((32,), minval=0, maxval=3, dtype=tf.int32)',
  'strategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n    model = models.Sequential([layers.Embedding(40, 8), layers.Conv1D(6, 3, activation="relu"), layers.Flatten(), layers.Dense(3)])\n    model.compile(optimizer=optimizers.Adam(0.05), loss=losses.SparseCategoricalCrossentropy(from_logits=True))',
  // Assigned later but outside the scope: the scope's model is the one exported.
  'probe = models.Sequential([layers.Dense(2, input_shape=(4,))])\nhistory = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(16), epochs=1, verbose=0)',
];

interface Weight {
  name: string;
  shape: number[];
  values: number[];
}

const noNumpy = numpyMissing();

describe.skipIf(noNumpy !== null)(
  `a Keras notebook's export carries its weights${noNumpy ? ` (skipped: ${noNumpy})` : ''}`,
  () => {
    it('in Keras order and layout, read back by NumPy; train.py compiles and reads them', async () => {
      const ours = JSON.parse(await pyodideCheck('export_in_scope')(JSON.stringify(CELLS))) as {
        weights: Omit<Weight, 'name'>[];
        keras: number[][];
        layers: string[];
        x: number[][];
        out: number[][];
      };
      const store = getTensorStore();
      const report = JSON.parse(
        new TextDecoder().decode(await store.get('.export-ddp/report.json')),
      ) as { has_weights: boolean; model: { name: string; why: string }; script: string };
      const bytes = await store.get('.export-ddp/weights.safetensors');
      if (!bytes) throw new Error('the export wrote no weights');
      expect(report.has_weights).toBe(true);
      expect(report.model).toEqual({
        name: 'model',
        why: '`model` (Sequential), the last Keras model made in `strategy.scope()`',
      });
      const [emb, conv, , dense] = ours.layers;

      // An independent reader: NumPy on the header's offsets, checking the layout of the file.
      const read = realPython(
        'read_safetensors',
        Buffer.from(bytes).toString('base64'),
      ) as Weight[];
      expect(read.map((w) => w.name)).toEqual([
        `000/${emb}/embeddings`,
        `001/${conv}/kernel`,
        `002/${conv}/bias`,
        `003/${dense}/kernel`,
        `004/${dense}/bias`,
      ]);
      // Keras's layouts: Embedding [vocab, dim], Conv1D [kernel_size, in, out], Dense [in, out].
      expect(read.map((w) => w.shape)).toEqual([[40, 8], [3, 8, 6], [6], [48, 3], [3]]);
      expect(read.map(({ shape, values }) => ({ shape, values }))).toEqual(ours.weights);
      // The same as our package's get_weights().
      expect(read.map((w) => w.values)).toEqual(ours.keras);

      // The layout, independently: NumPy's forward pass with Keras's formulas on these arrays
      // gives the model's output.
      const forward = realPython('forward', { weights: read, x: ours.x }) as number[][];
      forward.forEach((row, i) => row.forEach((v, j) => expect(ours.out[i][j]).toBeCloseTo(v, 4)));

      // train.py: loads right after the model is made in the scope, builds it first if needed.
      const script = report.script;
      expect(script).toContain('WEIGHTS_INPUT_SHAPE = (None, 10)');
      expect(script).toMatch(/\n {4}model = models\.Sequential\(.*\)\n {4}load_weights\(model\)\n/);
      expect(script).not.toContain('load_weights(probe)');
      const dir = mkdtempSync(join(tmpdir(), 'keras-export-'));
      writeFileSync(join(dir, 'train.py'), script);
      writeFileSync(join(dir, 'weights.safetensors'), bytes);
      const compiled = spawnSync(PYTHON, ['-m', 'py_compile', join(dir, 'train.py')], {
        encoding: 'utf8',
      });
      expect(compiled.stderr).toBe('');
      expect(compiled.status).toBe(0);
      // Its loading code, without TensorFlow: load_weights on a stand-in for the unbuilt Keras
      // model builds it with the notebook's input shape, then gets the arrays in get_weights()
      // order, with their shapes.
      const loader = script.slice(script.indexOf('_NP_DTYPES = {'), script.indexOf('def _sync():'));
      const loaded = realPython('load_with_stand_in', {
        loader,
        input_shape: script.match(/WEIGHTS_INPUT_SHAPE = (.*?) {2}#/)?.[1],
        folder: dir,
      }) as { shape: (number | null)[]; weights: Omit<Weight, 'name'>[] };
      expect(loaded.shape).toEqual([null, 10]);
      expect(loaded.weights).toEqual(ours.weights);
    });

    it('without a strategy scope, the last Keras model assigned; Dense kernels stay [in, out]', async () => {
      const cells = [
        'import tensorflow as tf\nfrom tensorflow.keras import *\nfirst = models.Sequential([layers.Dense(3, input_shape=(2,))])\nnet = models.Sequential([layers.Dense(4, activation="relu", input_shape=(5,)), layers.Dense(2)])\nnet.compile(optimizer="sgd", loss="mse")\nnet.fit(tf.random.uniform((8, 5)), tf.random.uniform((8, 2)), epochs=1, verbose=0)',
      ];
      const ours = JSON.parse(
        await pyodideCheck('export_last_assigned')(JSON.stringify(cells)),
      ) as {
        model: { name: string; why: string };
        names: string[];
        shapes: number[][];
        script: string;
      };
      expect(ours.model.name).toBe('net');
      expect(ours.model.why).toBe('`net` (Sequential), the last Keras model the notebook defines');
      expect(ours.names.map((n) => n.replace(/\/dense(_\d+)?\//, '/dense/'))).toEqual([
        '000/dense/kernel',
        '001/dense/bias',
        '002/dense/kernel',
        '003/dense/bias',
      ]);
      expect(ours.shapes).toEqual([[5, 4], [4], [4, 2], [2]]);
      expect(ours.script).toContain('WEIGHTS_INPUT_SHAPE = (None, 5)');
      expect(ours.script).toMatch(/\nnet = models\.Sequential\(.*\)\nload_weights\(net\)\n/);
    });
  },
);
