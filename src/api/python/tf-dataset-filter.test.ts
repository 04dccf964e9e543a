/**
 * tf.data.Dataset.filter from Python (src/api/tf/data/dataset.ts): a Python predicate keeps the
 * rows a plain JavaScript filter of the same data keeps, batching after it groups the kept rows,
 * fit trains on it, and a predicate that cannot be answered (a non-scalar; on a GPU, elements a
 * map already moved there) raises a clear error.
 */
import { describe, expect, it } from 'vitest';
import { startTfPython, tfName } from './testing/tf-python';

const { devices, python } = await startTfPython();

/** Rows of quarter-integers (exact in float32) and integer labels from a seeded generator. */
function data(seed: number, n: number): { xs: number[][]; ys: number[] } {
  let s = seed;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const xs = Array.from({ length: n }, () =>
    Array.from({ length: 3 }, () => Math.round((next() * 2 - 1) * 16) / 4),
  );
  const ys = Array.from({ length: n }, () => Math.floor(next() * 10));
  return { xs, ys };
}

describe.each(devices.map((d) => d.name))('Dataset.filter from Python on %s', (device) => {
  const { xs, ys } = data(device.length + 7, 20);
  const load = `
with tf.device("${tfName(device)}"):
    x = tf.constant(${JSON.stringify(xs)})
    y = tf.constant(${JSON.stringify(ys)})
    ds = tf.data.Dataset.from_tensor_slices((x, y))
`;

  it('two filters keep the rows a plain filter keeps, in order; batch after filter groups them', async () => {
    const [rows, batches] = (await python.run(`${load}
with tf.device("${tfName(device)}"):
    kept = ds.filter(lambda a, b: b < 5).filter(lambda a, b: tf.reduce_sum(a) > 0)
    rows = [[a.numpy(), b.numpy()] for a, b in kept]
    batches = [[a.numpy(), b.numpy()] for a, b in kept.batch(3)]
[rows, batches]`)) as [[number[], number][], [number[][], number[]][]];
    const expected = xs
      .map((x, i) => [x, ys[i]] as [number[], number])
      .filter(([x, y]) => y < 5 && x.reduce((s, v) => s + v, 0) > 0);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(20);
    expect(rows).toEqual(expected);
    const chunks = [];
    for (let i = 0; i < expected.length; i += 3) {
      const part = expected.slice(i, i + 3);
      chunks.push([part.map((p) => p[0]), part.map((p) => p[1])]);
    }
    expect(batches).toEqual(chunks);
  });

  it('fit trains on a filtered dataset (the epoch has as many steps as kept batches)', async () => {
    const steps = (await python.run(`${load}
class Count(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.batches = 0
    def on_train_batch_end(self, batch, logs=None):
        self.batches += 1
with tf.device("${tfName(device)}"):
    model = models.Sequential([layers.Dense(10, input_shape=(3,))])
    model.compile(optimizer="sgd", loss=losses.SparseCategoricalCrossentropy(from_logits=True))
    count = Count()
    model.fit(ds.filter(lambda a, b: b >= 3).batch(4), epochs=1, verbose=0, callbacks=[count])
count.batches`)) as number;
    expect(steps).toBe(Math.ceil(ys.filter((y) => y >= 3).length / 4));
  });

  it('a predicate that cannot be answered raises a clear error', async () => {
    const [shape, moved] = (await python.run(`${load}
def caught(fn):
    try:
        fn()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return None
with tf.device("${tfName(device)}"):
    shape = caught(lambda: list(ds.filter(lambda a, b: a > 0)))
    moved = caught(lambda: list(ds.map(lambda a, b: (a * 2, b)).filter(lambda a, b: b < 5)))
[shape, moved]`)) as (string | null)[];
    expect(shape).toMatch(
      /^TypeError: Dataset.filter: the predicate must return a scalar, got a tensor of shape \[3\]/,
    );
    if (device === 'cpu') expect(moved ?? null).toBeNull();
    else
      expect(moved).toMatch(
        /predicate's result is on gpu:0, which cannot be read while the pipeline runs/,
      );
  });
});
