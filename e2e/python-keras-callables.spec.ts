/**
 * Python callables through Keras in the browser kernel (tensorflow/_callables.py): a custom loss,
 * a Callback subclass that prints from on_epoch_end, a Dataset.map lambda, all in one fit; and an
 * error inside a Python loss shows the user's cell and line, without our packages' frames.
 */
import { expect, test } from '@playwright/test';
import { cell, output, waitForKernelIdle } from './helpers';
import { pythonNotebook } from './seed-notebooks';

const CELLS = [
  `import tensorflow as tf
from tensorflow.keras import *
tf.random.set_seed(1)
x = tf.random.uniform((64, 4))
y = tf.matmul(x, tf.ones((4, 1)))
ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda f, t: (f * 2, t * 2)).batch(16)`,
  `def my_mse(y_true, y_pred):
    return tf.reduce_mean((y_pred - y_true) ** 2, axis=-1)

class Printer(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print(f"epoch {epoch}: loss {logs['loss']:.6f}")

model = models.Sequential([layers.Dense(1, input_shape=(4,))])
model.compile(optimizer=optimizers.SGD(0.02), loss=my_mse)
history = model.fit(ds, epochs=3, verbose=0, callbacks=[Printer()])
print(sorted(history.history), ["%.6f" % v for v in history.history["loss"]])`,
  `def broken_loss(y_true, y_pred):
    return y_pred - undefined_name

model.compile(optimizer="sgd", loss=broken_loss)
model.fit(ds, epochs=1, verbose=0)`,
];

test('a Python loss, callback and map run inside fit; an error in the loss names its cell and line', async ({
  page,
}) => {
  test.setTimeout(4 * 60_000);
  await page.goto('/');
  await page.getByTestId('import-ipynb').setInputFiles({
    name: 'callables.ipynb',
    mimeType: 'application/json',
    buffer: Buffer.from(pythonNotebook('Python callables in Keras', CELLS)),
  });
  await expect(page.getByTestId('notebook-language')).toHaveAttribute('data-language', 'python');
  await waitForKernelIdle(page);
  await page.getByTestId('run-all').click();
  await page.getByTestId('trust-run').click();
  await expect(cell(page, 2)).toHaveAttribute('data-status', 'error', { timeout: 3 * 60_000 });
  await expect(cell(page, 1)).toHaveAttribute('data-status', 'done');

  const printed = await output(page, 1).innerText();
  const epochs = [...printed.matchAll(/^epoch (\d): loss ([\d.]+)$/gm)];
  expect(epochs.map((m) => Number(m[1]))).toEqual([0, 1, 2]);
  // The callback saw the logs History keeps.
  const history = /\['loss'\] \[([^\]]*)\]/.exec(printed)?.[1].replaceAll("'", '').split(', ');
  expect(history).toEqual(epochs.map((m) => m[2]));
  expect(Number(epochs[2][2])).toBeLessThan(Number(epochs[0][2]));

  const error = await output(page, 2).innerText();
  expect(error).toContain('File "Cell In[3]", line 5, in <module>');
  expect(error).toContain('File "Cell In[3]", line 2, in broken_loss');
  expect(error).toContain("NameError: name 'undefined_name' is not defined");
  expect(error).not.toMatch(/_callables|_js_object|\/lib\/gpubook|PythonError/);
  // No stray `pyodide.ffi.JsException: PythonCallableError: …` line (Pyodide printed one to
  // stderr when a rejected Promise reached Python) anywhere in the cell's output.
  expect(error).not.toMatch(/JsException|PythonCallableError/);
  // The cell's error output itself names the error once (Jupyter's form).
  const alert = await cell(page, 2).getByRole('alert').innerText();
  expect(alert.match(/NameError/g)).toHaveLength(1);
});
