/**
 * The `tensorflow` package's tensors (src/api/python/tensorflow/): TensorFlow's names over the
 * TS `tf` layer, on every test device (the CPU backend, and WebGPU when Node has an adapter).
 * Values are checked against plain Python computed from the same random inputs.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { tf } from '../tf';
import { startPython } from './testing/pyodide';
import { printbarCode } from './testing/tf-chapter-code';

const devices = await testDevices();
const python = await startPython({ tf });
await python.run(`
import tensorflow as tf
def close(a, b, tol=1e-4):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    return abs(a - b) <= tol * (1 + abs(b))
def matmul_py(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]
`);

/** `code` with tensors placed on `device` (the engine's name: cpu, gpu:0). */
function on(device: string, code: string): string {
  const indented = code
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `with tf.device("/${device.includes(':') ? device : `${device}:0`}"):\n${indented}\n`;
}

describe.each(devices.map((d) => d.name))('tensorflow tensors on %s', (device) => {
  it('constant, random.uniform, matmul and @, reduce_sum with axis, numpy() as Python values', async () => {
    const r = (await python.run(
      on(
        device,
        `
tf.random.set_seed(11)
x = tf.random.uniform((3, 4), minval=-1.0, maxval=2.0)
w = tf.random.uniform([4, 2], minval=-1.0, maxval=1.0)
xs, ws = x.numpy(), w.numpy()
checks = [
    close((x @ w).numpy(), matmul_py(xs, ws)),
    close(tf.matmul(x, w).numpy(), matmul_py(xs, ws)),
    close(tf.reduce_sum(x, axis=0).numpy(), [sum(r[j] for r in xs) for j in range(4)]),
    close(tf.reduce_sum(x, axis=1).numpy(), [sum(r) for r in xs]),
    close(tf.reduce_sum(x).numpy(), sum(sum(r) for r in xs)),
    isinstance(tf.reduce_sum(x).numpy(), float),
    tf.constant([[1, 2], [3, 4]]).numpy() == [[1, 2], [3, 4]],
    tf.constant(3).numpy() == 3 and isinstance(tf.constant(3).numpy(), int),
    (x @ w).shape == (3, 2) and (x @ w).shape.as_list() == [3, 2],
    x.device.endswith("${device.startsWith('gpu') ? 'GPU' : 'CPU'}:0"),
    all(-1.0 <= v < 2.0 for r in xs for v in r) and len(set(v for r in xs for v in r)) == 12,
]
`,
      ) + 'checks',
    )) as boolean[];
    expect(r).toEqual(r.map(() => true));
  });

  it('arithmetic with Python numbers incl. % and //, comparisons, floor, cast, range', async () => {
    const r = (await python.run(
      on(
        device,
        `
tf.random.set_seed(5)
f = tf.random.uniform([10], minval=-20.0, maxval=20.0)
i = tf.random.uniform([10], minval=-50, maxval=50, dtype=tf.int32)
fs, is_ = f.numpy(), i.numpy()
checks = [
    i.dtype == tf.int32 and f.dtype == tf.float32,
    (i % 7).numpy() == [v % 7 for v in is_],
    (i // 4).numpy() == [v // 4 for v in is_],
    (100 // (tf.abs(i) + 1)).numpy() == [100 // (abs(v) + 1) for v in is_],
    close((f % 3).numpy(), [v % 3 for v in fs]),
    close((f // 3).numpy(), [v // 3 for v in fs]),
    close((2.5 * f - 1 + f / 4).numpy(), [2.5 * v - 1 + v / 4 for v in fs]),
    (f > 0.5).numpy() == [v > 0.5 for v in fs],
    (i <= 3).numpy() == [v <= 3 for v in is_],
    (f > 0).dtype == tf.bool,
    close(tf.floor(f).numpy(), [float(int(v // 1)) for v in fs]),
    tf.cast(tf.floor(f), tf.int32).numpy() == [int(v // 1) for v in fs],
    tf.cast(i, tf.float32).numpy() == [float(v) for v in is_],
    tf.range(5).numpy() == [0, 1, 2, 3, 4],
    tf.range(2, 11, 3).numpy() == [2, 5, 8],
    tf.range(5).dtype == tf.int32,
    bool(tf.cast(tf.constant(86399.5) // 3600 + 8, tf.int32) % tf.constant(24) == 7),
]
`,
      ) + 'checks',
    )) as boolean[];
    expect(r).toEqual(r.map(() => true));
  });

  it('GradientTape gives the gradient of a least-squares loss; tf.function runs eagerly', async () => {
    const r = (await python.run(
      on(
        device,
        `
tf.random.set_seed(3)
x = tf.random.uniform((5, 3), minval=-1.0, maxval=1.0)
y = tf.random.uniform((5, 1), minval=-1.0, maxval=1.0)
w = tf.Variable(tf.random.uniform((3, 1), minval=-1.0, maxval=1.0))
b = tf.Variable(tf.constant([0.25]))

@tf.function
def loss_fn():
    return tf.reduce_sum((x @ w + b - y) ** 2)

with tf.GradientTape() as tape:
    loss = loss_fn()
dw, db = tape.gradient(loss, [w, b])
xs, ys, ws, bs = x.numpy(), y.numpy(), w.numpy(), b.numpy()
r = [sum(xs[n][k] * ws[k][0] for k in range(3)) + bs[0] - ys[n][0] for n in range(5)]
checks = [
    close(loss.numpy(), sum(v * v for v in r)),
    close(dw.numpy(), [[sum(2 * r[n] * xs[n][k] for n in range(5))] for k in range(3)]),
    close(db.numpy(), [sum(2 * v for v in r)]),
    dw.shape == (3, 1) and type(dw).__name__ == "Tensor",
]
w.assign_sub(0.1 * dw)
checks.append(close(w.numpy(), [[ws[k][0] - 0.1 * dw.numpy()[k][0]] for k in range(3)]))
`,
      ) + 'checks',
    )) as boolean[];
    expect(r).toEqual(r.map(() => true));
  });
});

describe('tensorflow printing', () => {
  it('tf.print prints tensors as TensorFlow does; repr is <tf.Tensor: …>', async () => {
    const printed = await python.output(`
import sys
tf.print(tf.constant([[1, 2], [3, 4]]), "and", tf.constant(2.5), output_stream=sys.stdout)
tf.print(tf.range(10), output_stream=sys.stdout)
tf.print(tf.constant([0.5, 1.0, 2.0]), output_stream=sys.stdout)
tf.print(tf.constant(224953778000.0), tf.constant(1.0) / 3, output_stream=sys.stdout)
print(repr(tf.constant(3)))
print(repr(tf.constant([[1, 2], [3, 4]])))
print(tf.constant([1, 2]).shape, tf.int32)
print(repr(tf.constant([1, 2])), repr(tf.Variable([1.5, 2.0])))
print(tf.constant([1, 2]) > 1)
`);
    expect(printed).toBe(
      [
        '[[1 2]',
        ' [3 4]] and 2.5',
        '[0 1 2 ... 7 8 9]',
        '[0.5 1 2]',
        '2.24953778e+11 0.333333343',
        '<tf.Tensor: shape=(), dtype=int32, numpy=3>',
        '<tf.Tensor: shape=(2, 2), dtype=int32, numpy=',
        'array([[1, 2],',
        '       [3, 4]], dtype=int32)>',
        'TensorShape([2]) tf.int32',
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)> <tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>",
        'tf.Tensor([False  True], shape=(2,), dtype=bool)',
        '',
      ].join('\n'),
    );
  });

  it("runs the chapter's printbar: tf.timestamp, tf.strings.format/length/join", async () => {
    const printed = await python.output(`
import sys, time
${printbarCode(', output_stream=sys.stdout')}
before = time.time()
printbar()
after = time.time()
print(" ".join(time.strftime("%H:%M", time.gmtime(t + 8 * 3600)) for t in (before, after + 0.05)))
`);
    const [bar, hostMinutes] = printed.trim().split('\n');
    expect(bar).toMatch(/^={80}\d\d:\d\d:\d\d$/);
    // The host clock's hour and minute before or after the call (UTC+8, as the chapter prints;
    // 50 ms more for float32 rounding of the time of day).
    expect(hostMinutes.split(' ')).toContain(bar.slice(80, 85));
    expect(
      await python.run(
        '[tf.strings.join(["a", "bc"], separator="-"), tf.strings.length("héllo").numpy()]',
      ),
    ).toEqual(['a-bc', 6]);
  });
});
