/**
 * The NumPy conversions' engine side in Pyodide, where Node has no NumPy (Pyodide's numpy comes
 * from the CDN, which tests cannot reach): torch/_numpy_engine.py's export / import_ / assign
 * move values as one buffer (checked with the standard library's `array`, against values read
 * independently with `tolist()`), and without NumPy the faces keep working and say how NumPy gets
 * loaded. The NumPy side is tested under CPython (numpy-conversions.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { tf } from '../tf';
import { startPython } from './testing/pyodide';

const python = await startPython({ tf });
const hasGpu = (await testDevices()).some((d) => d.kind === 'gpu');

describe('NumPy conversions without NumPy (Pyodide in Node)', () => {
  it('export, import_ and assign move a tensor as one buffer, float32 and int32', async () => {
    const r = (await python.run(`
import array, random, struct
import torch
from torch import _numpy_engine as engine
random.seed(5)
values = [random.uniform(-3, 3) for _ in range(12)]
ints = [random.randint(-1000, 1000) for _ in range(6)]
t = torch.tensor(values).reshape(3, 4).t()  # a transposed view: export reads it row-major
buf, dtype, shape = engine.export(t._js)
exported = list(struct.unpack(f"{buf.nbytes // 4}f", bytes(buf)))
h = engine.import_(memoryview(array.array("i", ints)), "int32", (2, 3), "cpu")
imported = torch.Tensor._wrap(h, True)
engine.assign(imported._js, memoryview(array.array("i", [7] * 6)))
empty = torch.Tensor._wrap(engine.import_(memoryview(array.array("f")), "float32", (0, 3), "cpu"), True)
{'values': values, 'ints': ints, 'exported': exported, 'dtype': dtype, 'shape': list(shape),
 'expected': t.tolist(),
 'assigned': imported.tolist(), 'importedShape': list(imported.shape), 'empty': list(empty.shape)}
`)) as Record<string, unknown>;
    const values = r.values as number[];
    const expected = (r.expected as number[][]).flat();
    expect(r.dtype).toBe('float32');
    expect(r.shape).toEqual([4, 3]);
    // Row-major order of the transposed 3x4: element (i, j) is values[j * 4 + i].
    const transposed = Array.from(
      { length: 12 },
      (_, k) => values[(k % 3) * 4 + Math.floor(k / 3)],
    );
    (r.exported as number[]).forEach((v, k) => {
      expect(v).toBe(expected[k]);
      expect(v).toBeCloseTo(transposed[k], 5);
    });
    expect(r.importedShape).toEqual([2, 3]);
    expect(r.assigned).toEqual([
      [7, 7, 7],
      [7, 7, 7],
    ]);
    expect(r.empty).toEqual([0, 3]);
  });

  it('import_ keeps int32 values exactly (before any assign)', async () => {
    const r = (await python.run(`
import array
ints = [-2147483647, 0, 5, 2147483647]
t = torch.Tensor._wrap(engine.import_(memoryview(array.array("i", ints)), "int32", (4,), "cpu"), True)
[ints, t.tolist(), str(t.dtype)]
`)) as [number[], number[], string];
    expect(r[1]).toEqual(r[0]);
    expect(r[2]).toBe('torch.int64');
  });

  it('without NumPy: numpy() and from_numpy say so; tf numpy() stays Python values', async () => {
    const r = (await python.run(`
import sys
import tensorflow as tf
assert 'numpy' not in sys.modules
def error(f):
    try:
        f()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
t = torch.ones(3)
{'numpy': error(t.numpy), 'from_numpy': error(lambda: torch.from_numpy([1.0])),
 'asarray_like': error(lambda: t.__array__()),
 'tf': tf.constant([[1.5, 2.0]]).numpy(), 'tf0': tf.constant(3).numpy(),
 'tensor': torch.tensor([1, 2]).tolist(), 'as_tensor': torch.as_tensor([1.5]).tolist()}
`)) as Record<string, unknown>;
    expect(r.numpy).toMatch(/^RuntimeError: Numpy is not available: .*import numpy.*online/);
    expect(r.asarray_like).toBe(r.numpy);
    expect(r.from_numpy).toBe('TypeError: expected np.ndarray (got list)');
    expect(r.tf).toEqual([[1.5, 2]]);
    expect(r.tf0).toBe(3);
    expect(r.tensor).toEqual([1, 2]);
    expect(r.as_tensor).toEqual([1.5]);
  });

  it('numpy() of a tensor that requires grad gives PyTorch’s RuntimeError', async () => {
    const r = (await python.run(`
w = torch.ones(2, requires_grad=True)
[error(w.numpy)]
`)) as string[];
    expect(r[0]).toBe(
      "RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
    );
  });

  it('a tensor standing for a NumPy dtype (as from_numpy makes) prints it and keeps it where PyTorch does', async () => {
    const r = (await python.run(`
from torch import _numpy
def labelled(values, name, **kw):
    t = torch.tensor(values, **kw)
    t._np = _numpy.Shared(name)
    return t
f = labelled([1.5, 2.0], "float64")
i = labelled([[1, 2], [3, 4]], "int32")
g = labelled([0.5, -1.0], "float64", requires_grad=True)
long = labelled([1000.5] * 12, "float64", requires_grad=True)
{'f': repr(f), 'i': repr(i), 'g': repr(g), 'fn': repr(g * 2), 'long': repr(long),
 'dtypes': [str(x.dtype) for x in (f, i, f.detach(), f.clone(), f.to('cpu'), f.cpu())],
 'dropped': [str(x.dtype) for x in (f.float(), f.to(torch.float32), f + 1)],
 'gpu': repr(f.cuda()) if torch.cuda.is_available() else None}
`)) as Record<string, unknown>;
    // PyTorch 1.13's reprs of the same tensors (float64 / int32).
    expect(r.f).toBe('tensor([1.5000, 2.0000], dtype=torch.float64)');
    expect(r.i).toBe('tensor([[1, 2],\n        [3, 4]], dtype=torch.int32)');
    expect(r.g).toBe('tensor([ 0.5000, -1.0000], dtype=torch.float64, requires_grad=True)');
    // A result of an op is float32 here (the engine's), so it prints no dtype.
    expect(r.fn).toBe('tensor([ 1., -2.], grad_fn=<MulBackward0>)');
    expect(r.long).toBe(
      'tensor([1000.5000, 1000.5000, 1000.5000, 1000.5000, 1000.5000, 1000.5000,\n' +
        '        1000.5000, 1000.5000, 1000.5000, 1000.5000, 1000.5000, 1000.5000],\n' +
        '       dtype=torch.float64, requires_grad=True)',
    );
    expect(r.dtypes).toEqual([
      'torch.float64',
      'torch.int32',
      'torch.float64',
      'torch.float64',
      'torch.float64',
      'torch.float64',
    ]);
    expect(r.dropped).toEqual(['torch.float32', 'torch.float32', 'torch.float32']);
    if (hasGpu)
      expect(r.gpu).toBe("tensor([1.5000, 2.0000], device='cuda:0', dtype=torch.float64)");
  });

  it('Keras fit/evaluate/predict and from_tensor_slices take the engine tensors NumPy arrays become', async () => {
    // What numpy_to_js hands the TS layer for x and y (import_ on TensorFlow's device, owned by
    // no Python wrapper) trains exactly as tf.constant of the same values does.
    const r = (await python.run(`
import array, random
import tensorflow as tf
from tensorflow.keras import layers, models
random.seed(3)
xs = [random.uniform(-1, 1) for _ in range(32 * 3)]
ys = [random.randint(0, 3) for _ in range(32)]
def build():
    tf.keras.backend.clear_session()
    tf.random.set_seed(4)
    m = models.Sequential()
    m.add(layers.Dense(4, input_shape=(3,)))
    m.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return m
def run(x, y):
    m = build()
    h = m.fit(x, y, validation_data=(x, y), epochs=2, batch_size=8, verbose=0, shuffle=False)
    return h.history, m.evaluate(x, y, verbose=0), m.predict(x, verbose=0).numpy()
hx = engine.import_(memoryview(array.array("f", xs)), "float32", (32, 3), "tf")
hy = engine.import_(memoryview(array.array("i", ys)), "int32", (32,), "tf")
imported = run(hx, hy)
constant = run(tf.constant([xs[i * 3:i * 3 + 3] for i in range(32)]), tf.constant(ys))
xb, yb = next(iter(tf.data.Dataset.from_tensor_slices((hx, hy)).batch(8)))
{'imported': list(imported), 'constant': list(constant), 'xb': xb.numpy(), 'yb': yb.numpy(),
 'xs': xs[:24], 'ys': ys[:8]}
`)) as Record<string, unknown>;
    expect(r.imported).toEqual(r.constant);
    const [history] = r.imported as [Record<string, number[]>];
    expect(history.loss).toHaveLength(2);
    expect(history.val_loss).toHaveLength(2);
    expect(r.yb).toEqual(r.ys);
    const xs = r.xs as number[];
    (r.xb as number[][]).flat().forEach((v, k) => expect(v).toBeCloseTo(xs[k], 6));
  });

  it.skipIf(!hasGpu)('numpy() of a GPU tensor gives PyTorch’s TypeError', async () => {
    const r = (await python.run(`error(torch.ones(2, device='cuda').numpy)`)) as string;
    expect(r).toBe(
      "TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
    );
  });
});
