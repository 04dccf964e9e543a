/**
 * TensorFlow's beginner quickstart and Keras's "Simple MNIST convnet" example as a student pastes
 * them into a Python notebook (fixtures/tf-tutorials.py): every cell runs, verbatim but for the
 * dataset and epoch sizes and, in the convnet, NumPy's two steps written as tf ops (NumPy cannot
 * load offline); the fixture marks those lines. The printouts are checked where they are
 * deterministic (the convnet's summary and parameter count are Keras's own: 34,826).
 */
import { expect, test } from '@playwright/test';
import { fixtureCells, runTutorialNotebook } from './tutorial-notebook';

test("TensorFlow's beginner quickstart and Keras's MNIST convnet run in a Python notebook", async ({
  page,
}) => {
  test.setTimeout(4 * 60_000);
  const sources = fixtureCells('tf-tutorials.py');
  const outputOf = await runTutorialNotebook(page, sources, 'TensorFlow tutorials', 120_000);

  const texts = async (marker: string) => (await outputOf(marker).innerText()).trim();
  expect(await texts('print("TensorFlow version:"')).toMatch(/^TensorFlow version: 2\.\d+\.\d+$/);
  expect(await texts('print(predictions)')).toMatch(/^\[\[(-?[\d.e-]+, ){9}-?[\d.e-]+\]\]$/);
  expect(await texts('tf.nn.softmax(predictions).numpy()')).toMatch(/^\[\[0\.\d+/);
  expect(await texts('loss_fn(y_train[:1], predictions).numpy()')).toMatch(/\d\.\d+/);
  const fit = await texts('model.fit(x_train, y_train, epochs=2)');
  expect(fit).toMatch(/Epoch 1\/2[\s\S]*Epoch 2\/2/);
  expect(fit).toMatch(/10\/10 .*loss: \d\.\d{4} - accuracy: \d\.\d{4}/);
  const evaluated = await texts('model.evaluate(x_test,  y_test, verbose=2)');
  expect(evaluated).toMatch(/loss: \d\.\d{4} - accuracy: \d\.\d{4}/);
  expect(evaluated).toMatch(/\[\d\.\d+, \d\.\d+\]$/);
  expect(await texts('probability_model(x_test[:5])')).toContain(
    '<tf.Tensor: shape=(5, 10), dtype=float32, numpy=',
  );

  expect(await texts('print("x_train shape:", x_train.shape)')).toBe(
    'x_train shape: TensorShape([192, 28, 28, 1])\n192 train samples\n64 test samples',
  );
  const summary = await texts('model.summary()');
  expect(summary).toContain('conv2d (Conv2D)              (None, 26, 26, 32)        320');
  expect(summary).toContain('dense_2 (Dense)              (None, 10)                16010');
  expect(summary).toContain('Total params: 34,826');
  expect(await texts('validation_split=0.1')).toMatch(
    /Epoch 1\/1[\s\S]*loss: \d\.\d{4} - accuracy: \d\.\d{4} - val_loss: \d\.\d{4} - val_accuracy: \d\.\d{4}/,
  );
  expect(await texts('score = model.evaluate(x_test, y_test, verbose=0)')).toMatch(
    /^Test loss: \d\.\d+\nTest accuracy: \d\.\d+$/,
  );
});
