/**
 * Python callables through the TS Keras layer (tensorflow/_callables.py): a custom loss and a
 * custom metric function in `compile`, a `tf.keras.callbacks.Callback` subclass and a
 * `Dataset.map` lambda, all through `model.fit`, on every test device. Each value is checked
 * against an independent computation: the built-in loss's History, logs against History,
 * mapped batches against the doubled inputs. Proxies are released (the Python objects'
 * reference counts come back) and an error inside the callable raises the user's exception with
 * the user's frames.
 */
import { describe, expect, it } from 'vitest';
import { denseRegressionCode, startTfPython, tfName } from './testing/tf-python';

const { devices, python } = await startTfPython('import sys, traceback\n');

/** A regression model and data from `seed`, compiled with `loss` (Python source). */
const SETUP = (device: string, seed: number, loss: string, metrics = '[]'): string => `
${denseRegressionCode(device, seed, 40, `optimizer=optimizers.SGD(0.1), loss=${loss}, metrics=${metrics}`)}
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
`;

const FIT = (device: string, extra = ''): string => `
with tf.device("${tfName(device)}"):
    history = model.fit(ds, epochs=3, verbose=0${extra})
`;

describe.each(devices.map((d) => d.name))('Python callables in tf.keras on %s', (device) => {
  it("a custom MSE loss trains to the built-in 'mse' history; a custom metric equals the loss it restates", async () => {
    await python.run(SETUP(device, 7, '"mse"') + FIT(device));
    const builtIn = (await python.run('history.history["loss"]')) as number[];
    const custom = await python.run(`
def my_mse(y_true, y_pred):
    return tf.reduce_mean((y_pred - y_true) ** 2, axis=-1)

def mean_abs(y_true, y_pred):
    return tf.reduce_mean(tf.abs(y_pred - y_true), axis=-1)
${SETUP(device, 7, 'my_mse', '[mean_abs, my_mse]')}${FIT(device)}
dict(history.history)`);
    const h = custom as Record<string, number[]>;
    // Keras names a function metric after the function.
    expect(Object.keys(h).sort()).toEqual(['loss', 'mean_abs', 'my_mse']);
    expect(h.loss).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(h.loss[i] - builtIn[i])).toBeLessThanOrEqual(1e-6);
      // The metric is averaged over batches as the loss is: the same function gives the same numbers.
      expect(Math.abs(h.my_mse[i] - h.loss[i])).toBeLessThanOrEqual(1e-6);
    }
    expect(h.loss[2]).toBeLessThan(h.loss[0]);
    // The metric against its definition on the trained model's predictions (one batch: no averaging).
    const [metric, direct] = (await python.run(`
with tf.device("${tfName(device)}"):
    whole = tf.data.Dataset.from_tensor_slices((x, y)).batch(40)
    result = model.evaluate(whole, verbose=0)
    p = model.predict(x, verbose=0)
    direct = tf.reduce_mean(tf.abs(p - y)).numpy()
[result[1], direct]`)) as number[];
    expect(Math.abs(metric - direct)).toBeLessThan(1e-5);
    // Compiling again releases the Python functions the model held.
    const counts = (await python.run(`
before = sys.getrefcount(my_mse), sys.getrefcount(mean_abs)
model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
after = sys.getrefcount(my_mse), sys.getrefcount(mean_abs)
[before, after]`)) as number[][];
    expect(counts[1][0]).toBeLessThan(counts[0][0]);
    expect(counts[1][1]).toBeLessThan(counts[0][1]);
  });

  it('a Callback subclass sees every epoch and batch with the logs History keeps, and the model', async () => {
    const result = (await python.run(`
class Recorder(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.events = []
        self.epoch_logs = []

    def on_train_begin(self, logs=None):
        self.events.append(("begin", self.params["epochs"], self.params["steps"], len(self.model.layers)))

    def on_epoch_begin(self, epoch, logs=None):
        self.events.append(("epoch_begin", epoch))

    def on_train_batch_end(self, batch, logs=None):
        self.events.append(("batch", batch, sorted(logs)))

    def on_epoch_end(self, epoch, logs=None):
        self.events.append(("epoch_end", epoch))
        self.epoch_logs.append(dict(logs))

    def on_train_end(self, logs=None):
        self.events.append(("end", sorted(logs)))
${SETUP(device, 3, '"mse"')}
recorder = Recorder()
refs_before = sys.getrefcount(recorder)
${FIT(device, ', callbacks=[recorder]')}
{"events": [list(e) for e in recorder.events], "logs": recorder.epoch_logs,
 "history": dict(history.history), "refs": [refs_before, sys.getrefcount(recorder)]}`)) as {
      events: unknown[][];
      logs: Record<string, number>[];
      history: Record<string, number[]>;
      refs: number[];
    };
    const expected: unknown[][] = [['begin', 3, 5, 1]];
    for (let epoch = 0; epoch < 3; epoch++) {
      expected.push(['epoch_begin', epoch]);
      for (let batch = 0; batch < 5; batch++) expected.push(['batch', batch, ['loss']]);
      expected.push(['epoch_end', epoch]);
    }
    expected.push(['end', ['loss']]);
    expect(result.events).toEqual(expected);
    expect(result.logs.map((l) => l.loss)).toEqual(result.history.loss);
    // fit's proxies of the hooks are gone: they no longer hold the callback.
    expect(result.refs[1]).toBe(result.refs[0]);
  });

  it('a callback setting self.model.stop_training ends fit after that epoch', async () => {
    const epochs = await python.run(`
class StopAfterSecond(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 1:
            self.model.stop_training = True
${SETUP(device, 3, '"mse"')}${FIT(device, ', callbacks=[StopAfterSecond()]')}
first = len(history.history["loss"])
${FIT(device)}
[first, len(history.history["loss"])]`);
    // A later fit starts with stop_training cleared again.
    expect(epochs).toEqual([2, 3]);
  });

  it('Dataset.map with a Python lambda doubles the features, and fit trains on the mapped data', async () => {
    const result = (await python.run(`
with tf.device("${tfName(device)}"):
    tf.random.set_seed(11)
    x = tf.random.uniform((12, 3))
    y = tf.range(12)
    mapped = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda f, l: (f * 2, l + 100)).batch(5)
    batches = [(f.numpy(), l.numpy()) for f, l in mapped]
    model = models.Sequential([layers.Dense(4, input_shape=(3,))])
    model.compile(optimizer="adam", loss=losses.SparseCategoricalCrossentropy(from_logits=True))
    small = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda f, l: (f * 2, l % 4)).batch(4)
    history = model.fit(small, epochs=2, verbose=0)
{"x": x.numpy(), "batches": batches, "loss": history.history["loss"]}`)) as {
      x: number[][];
      batches: [number[][], number[]][];
      loss: number[];
    };
    expect(result.batches.map(([f]) => f.length)).toEqual([5, 5, 2]);
    const features = result.batches.flatMap(([f]) => f);
    const labels = result.batches.flatMap(([, l]) => l);
    expect(features).toEqual(result.x.map((row) => row.map((v) => v * 2)));
    expect(labels).toEqual(Array.from({ length: 12 }, (_, i) => i + 100));
    expect(result.loss).toHaveLength(2);
    for (const l of result.loss) expect(Number.isFinite(l)).toBe(true);
  });

  it("an error inside a Python loss, metric, hook or map raises the user's exception with the user's frames, and nothing on stderr", async () => {
    await python.run('import io\nstderr, sys.stderr = sys.stderr, io.StringIO()');
    const report = (await python.run(`
def bad_loss(y_true, y_pred):
    scale = 2
    raise ValueError(f"bad loss at scale {scale}")

class BadCallback(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        raise KeyError("no such log")

def caught(fn):
    try:
        fn()
    except Exception as error:
        return [type(error).__name__, str(error), traceback.format_exc()]
    return None
${SETUP(device, 5, 'bad_loss')}
first = caught(lambda: model.fit(ds, epochs=1, verbose=0))
${SETUP(device, 5, '"mse"')}
second = caught(lambda: model.fit(ds, epochs=1, verbose=0, callbacks=[BadCallback()]))
third = caught(lambda: [b for b in tf.data.Dataset.from_tensor_slices(x).map(lambda v: v / undefined_name)])

class NoPredict(tf.keras.callbacks.Callback):
    def on_predict_end(self, logs=None):
        pass

fourth = caught(lambda: model.fit(ds, epochs=1, verbose=0, callbacks=[NoPredict()]))

def reading_loss(y_true, y_pred):
    print(tf.reduce_mean(y_pred).numpy())
    return tf.reduce_mean((y_pred - y_true) ** 2, axis=-1)

model.compile(optimizer="sgd", loss=reading_loss)
fifth = caught(lambda: model.fit(ds, epochs=1, verbose=0))
model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
[first, second, third, fourth, fifth]`)) as string[][];
    const [loss, hook, map, unsupported, reading] = report;
    expect(reading[0]).toBe('RuntimeError');
    expect(reading[1]).toMatch(/^reading_loss is called by Keras in the middle of a training step/);
    expect(reading[2]).toContain('in reading_loss');
    expect(loss.slice(0, 2)).toEqual(['ValueError', 'bad loss at scale 2']);
    // The innermost frame is the user's function, at the line that raised (line 4 of the cell).
    expect(loss[2]).toMatch(/line 4, in bad_loss\nValueError: bad loss at scale 2\n$/);
    expect(hook.slice(0, 2)).toEqual(['KeyError', "'no such log'"]);
    expect(hook[2]).toContain('in on_epoch_end');
    expect(map[0]).toBe('NameError');
    expect(map[2]).toContain('in <lambda>');
    expect(unsupported[0]).toBe('NotImplementedError');
    expect(unsupported[1]).toContain('on_predict_end');
    // A rejected Promise reaching Python made Pyodide print its error to stderr once it settled
    // (a stray `pyodide.ffi.JsException: …` line above the cell's traceback): the event loop
    // turns here so that such a line would be written before stderr is read.
    const written = await python.run(`
import asyncio
await asyncio.sleep(0.05)
written, sys.stderr = sys.stderr.getvalue(), stderr
written`);
    expect(written).toBe('');
    // The model still trains after the errors (nothing was left half-registered).
    const loss2 = (await python.run(`
${FIT(device)}
history.history["loss"]`)) as number[];
    expect(loss2).toHaveLength(3);
  });
});
