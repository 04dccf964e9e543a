/**
 * The TensorFlow chapters' training step through our TS Keras layer (`tf.keras`, src/api/tf):
 * the Reuters Conv1D model (Embedding 30982×7 over 300 tokens, Conv1D 64/5, MaxPool, Conv1D 32/3,
 * MaxPool, Flatten, Dense 46 softmax) and the chapter's GradientTape step with Nadam, its loss
 * read back. `./python.ts` runs the same step written in Python (`import tensorflow as tf`), so
 * the pair measures what Python Keras costs over TypeScript Keras.
 */
import { tf } from '../../../src/api/tf';
import type { Tensor } from '../../../src/engine';

/** Sizes shared with the Python program: the chapter's vocabulary, length and classes. */
export const KERAS_TEXT = { words: 30982, length: 300, classes: 46 } as const;

export function kerasTextStep(batch: number): () => Promise<number> {
  const { layers, losses, models, optimizers } = tf.keras;
  tf.keras.backend.clearSession();
  tf.random.setSeed(0);
  const model = new models.Sequential();
  model.add(new layers.Embedding(KERAS_TEXT.words, 7, { inputLength: KERAS_TEXT.length }));
  model.add(new layers.Conv1D({ filters: 64, kernelSize: 5, activation: 'relu' }));
  model.add(new layers.MaxPool1D(2));
  model.add(new layers.Conv1D({ filters: 32, kernelSize: 3, activation: 'relu' }));
  model.add(new layers.MaxPool1D(2));
  model.add(new layers.Flatten());
  model.add(new layers.Dense(KERAS_TEXT.classes, { activation: 'softmax' }));
  const optimizer = new optimizers.Nadam();
  const lossFunc = new losses.SparseCategoricalCrossentropy();
  const features = tf.random.uniform([batch, KERAS_TEXT.length], {
    minval: 0,
    maxval: KERAS_TEXT.words,
    dtype: 'int32',
  });
  const labels = tf.random.uniform([batch], {
    minval: 0,
    maxval: KERAS_TEXT.classes,
    dtype: 'int32',
  });
  return async () => {
    const tape = new tf.GradientTape();
    const predictions = model(features, { training: true });
    const loss = lossFunc(labels, predictions) as Tensor;
    const variables = model.trainableVariables;
    const gradients = tape.gradient(loss, variables);
    optimizer.applyGradients(tf.zip(gradients, variables));
    return loss.item();
  };
}
