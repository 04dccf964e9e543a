"""The TF chapters' GradientTape step as the book writes it in Python (keras.ts in TypeScript), run
by python.ts in Pyodide with gpubook's ``tensorflow`` over our engine.
"""

import tensorflow as tf
from tensorflow.keras import layers, losses, models, optimizers


def keras_text_step(batch, words, length, classes):
    """The step; ``words``, ``length``, ``classes`` are keras.ts's KERAS_TEXT, as there."""
    tf.keras.backend.clear_session()
    tf.random.set_seed(0)
    model = models.Sequential()
    model.add(layers.Embedding(words, 7, input_length=length))
    model.add(layers.Conv1D(filters=64, kernel_size=5, activation="relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Conv1D(filters=32, kernel_size=3, activation="relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Flatten())
    model.add(layers.Dense(classes, activation="softmax"))
    optimizer = optimizers.Nadam()
    loss_func = losses.SparseCategoricalCrossentropy()
    features = tf.random.uniform((batch, length), minval=0, maxval=words, dtype=tf.int32)
    labels = tf.random.uniform((batch,), minval=0, maxval=classes, dtype=tf.int32)

    def run():
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = loss_func(labels, predictions)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss.numpy()

    return run
