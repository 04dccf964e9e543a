/**
 * Keras's weight methods in Python (tensorflow/keras/_weights.py, models/weights-file.ts):
 * `get_weights` in Keras's order (layers in order, kernel then bias) checked against the model's
 * own predictions computed by hand in float64; `set_weights` round-trips exact float32 values and
 * checks shapes; `save_weights` → perturb → `load_weights` restores the exact values, also into a
 * model rebuilt with other layer names.
 */
import { describe, expect, it } from 'vitest';
import { startTfPython, tfName } from './testing/tf-python';

const { devices, python } = await startTfPython();

const BUILD = (device: string, seed: number): string => `
with tf.device("${tfName(device)}"):
    tf.random.set_seed(${seed})
    model = models.Sequential()
    model.add(layers.Dense(4, activation="relu", input_shape=(3,)))
    model.add(layers.Dense(2))
    x = tf.random.uniform((5, 3), minval=-1, maxval=1)
    model(x)
`;

type Matrix = number[][];
const dense = (x: Matrix, k: Matrix, b: number[], relu: boolean): Matrix =>
  x.map((row) =>
    b.map((bj, j) => {
      const v = row.reduce((s, xi, i) => s + xi * k[i][j], bj);
      return relu ? Math.max(0, v) : v;
    }),
  );

describe.each(devices.map((d) => d.name))('Keras weights in Python on %s', (device) => {
  it('get_weights is [kernel, bias] per layer in order and reproduces predict by hand', async () => {
    await python.run(BUILD(device, 3));
    const [weights, xs, preds] = (await python.run(`
with tf.device("${tfName(device)}"):
    out = [model.get_weights(), x.numpy(), model.predict(x, verbose=0).numpy()]
out`)) as [[Matrix, number[], Matrix, number[]], Matrix, Matrix];
    expect(
      weights.map((w) =>
        Array.isArray(w[0]) ? [w.length, (w[0] as number[]).length] : [w.length],
      ),
    ).toEqual([[3, 4], [4], [4, 2], [2]]);
    const [k1, b1, k2, b2] = weights;
    const expected = dense(dense(xs, k1, b1, true), k2, b2, false);
    expected.forEach((row, i) =>
      row.forEach((v, j) => expect(Math.abs(preds[i][j] - v)).toBeLessThan(1e-5)),
    );
  });

  it('set_weights takes nested lists and tensors, round-trips exact values and checks shapes', async () => {
    await python.run(BUILD(device, 4));
    const seed = [0.25, -1.5, 3.125, 0.1];
    const values = (await python.run(`
vals = [[[${seed[0]} * (i + 1) + j for j in range(4)] for i in range(3)], [${seed.join(', ')}],
        tf.constant([[${seed[2]} - i * j for j in range(2)] for i in range(4)]), [-0.5, 0.75]]
model.set_weights(vals)
model.get_weights()`)) as unknown[];
    const kernel1 = [0, 1, 2].map((i) => [0, 1, 2, 3].map((j) => Math.fround(0.25 * (i + 1) + j)));
    expect(values[0]).toEqual(kernel1);
    expect(values[1]).toEqual(seed.map(Math.fround));
    expect(values[2]).toEqual([0, 1, 2, 3].map((i) => [0, 1].map((j) => 3.125 - i * j)));
    expect(values[3]).toEqual([-0.5, 0.75]);
    const error = (await python.run(`
try:
    model.set_weights([[[0.0] * 3] * 4, [0.0] * 4, [[0.0] * 2] * 4, [0.0] * 2])
except ValueError as e:
    err = str(e)
err`)) as string;
    expect(error).toMatch(
      /weight shape \(3, 4\) is not compatible with provided weight shape \(4, 3\)/,
    );
    const count = (await python.run(`
try:
    model.set_weights([])
except ValueError as e:
    err = str(e)
err`)) as string;
    expect(count).toMatch(/weight list of length 0, but the layer was expecting 4 weights/);
  });

  it('save_weights, perturb, load_weights restores the exact values (also into a rebuilt model)', async () => {
    await python.run(BUILD(device, 5));
    const [saved, perturbed, restored, rebuilt] = (await python.run(`
with tf.device("${tfName(device)}"):
    saved = model.get_weights()
    model.save_weights("tf-weights-test.h5")
    model.set_weights([[[v + 1.0 for v in row] for row in w] if isinstance(w[0], list) else [v - 2.0 for v in w] for w in saved])
    perturbed = model.get_weights()
    model.load_weights("tf-weights-test.h5")
    restored = model.get_weights()
${BUILD(device, 99).replace(/\n/g, '\n')}
with tf.device("${tfName(device)}"):
    model.load_weights("tf-weights-test.h5")
    rebuilt = model.get_weights()
[saved, perturbed, restored, rebuilt]`)) as unknown[][];
    expect(perturbed).not.toEqual(saved);
    expect(restored).toEqual(saved);
    expect(rebuilt).toEqual(saved);
    const error = (await python.run(`
small = models.Sequential([layers.Dense(2, input_shape=(3,))])
try:
    small.load_weights("tf-weights-test.h5")
except RuntimeError as e:
    err = str(e)
err`)) as string;
    expect(error).toMatch(/expected 2 weights, but the file holds 4/);
  });
});
