"""The new Keras pieces in course-style training loops, written as a course writes them (no del,
no dispose): four small models (conv + BatchNormalization, masked recurrent, a functional
MultiHeadAttention block, a Python-subclassed model) with the new losses, optimizers, schedules
and metrics. ``start()`` builds them as ``RUNS``; ``fit_epochs(n)`` runs ``fit`` for n epochs on
each, ``tape_steps(n)`` n steps of a hand-written GradientTape loop; both return the last losses.
keras-new-layers-memory.test.ts measures device memory between calls, and
keras-new-layers-distribute.test.ts builds the same models under a MirroredStrategy."""

import math

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

DEVICE = globals().get("DEVICE", "/cpu:0")


def uniform(*shape):
    return tf.random.uniform(shape, minval=-1, maxval=1)


with tf.device(DEVICE):
    tf.random.set_seed(37)
    DATA = {
        "conv": (uniform(4, 5, 5, 2), tf.constant([0, 2, 1, 1])),
        "rnn": (
            tf.constant([[1, 4, 2, 0, 0], [3, 5, 6, 2, 1], [2, 2, 0, 0, 0], [6, 1, 3, 4, 0]]),
            tf.constant([[1.0], [0.0], [1.0], [0.0]]),
        ),
        "mha": (uniform(4, 4, 6), uniform(4, 2)),
        "sub": (uniform(6, 3), uniform(6, 1)),
    }


def make_conv():
    model = keras.Sequential(
        [
            keras.Input((5, 5, 2)),
            layers.Conv2D(3, 3, padding="same"),
            layers.BatchNormalization(),
            layers.DepthwiseConv2D(3, padding="same", depth_multiplier=2),
            layers.GlobalAveragePooling2D(),
            layers.Dense(3),
        ]
    )
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    schedule = keras.optimizers.schedules.ExponentialDecay(0.05, 2, 0.9)
    model.compile(keras.optimizers.SGD(schedule, momentum=0.9, nesterov=True), loss)
    return model, loss


def make_rnn():
    model = keras.Sequential(
        [
            keras.Input((5,), dtype="int32"),
            layers.Embedding(7, 4, mask_zero=True),
            layers.Bidirectional(layers.LSTM(3, return_sequences=True)),
            layers.GRU(3),
            layers.Dense(1),
        ]
    )
    loss = keras.losses.BinaryCrossentropy(from_logits=True)
    model.compile(
        keras.optimizers.RMSprop(0.01, centered=True),
        loss,
        metrics=[keras.metrics.AUC(), keras.metrics.Precision(), keras.metrics.Recall()],
    )
    return model, loss


def make_mha():
    inputs = keras.Input((4, 6))
    attended = layers.MultiHeadAttention(2, 3)(inputs, inputs)
    x = layers.LayerNormalization()(layers.Add()([inputs, attended]))
    x = layers.GlobalAveragePooling1D()(x)
    model = keras.Model(inputs, layers.Dense(2)(x))
    schedule = keras.optimizers.schedules.CosineDecay(0.01, 20)
    model.compile(keras.optimizers.AdamW(schedule, weight_decay=0.01), "mse")
    return model, keras.losses.MeanSquaredError()


class Net(keras.Model):
    def __init__(self, norm=True):
        super().__init__()
        self.hidden = layers.Dense(5, activation="relu")
        self.norm = layers.BatchNormalization() if norm else None
        self.out = layers.Dense(1)

    def call(self, x, training=False):
        h = self.hidden(x)
        if self.norm is not None:
            h = self.norm(h, training=training)
        return self.out(h)


def make_sub(norm=True):
    model = Net(norm)
    model(DATA["sub"][0][:1])  # builds the weights, as get_weights/set_weights need
    loss = keras.losses.Huber()
    model.compile(keras.optimizers.Adam(0.01), loss)
    return model, loss


MAKERS = {"conv": make_conv, "rnn": make_rnn, "mha": make_mha, "sub": make_sub}
RUNS = []


def start():
    with tf.device(DEVICE):
        tf.keras.backend.clear_session()
        tf.random.set_seed(37)
        for key, make in MAKERS.items():
            model, loss = make()
            RUNS.append((model, DATA[key], loss))


def fit_epochs(n):
    with tf.device(DEVICE):
        return [model.fit(x, y, batch_size=2, epochs=n, verbose=0).history["loss"][-1] for model, (x, y), _ in RUNS]


def tape_steps(n):
    losses = []
    with tf.device(DEVICE):
        for _ in range(n):
            row = []
            for model, (x, y), loss_fn in RUNS:
                with tf.GradientTape() as tape:
                    pred = model(x, training=True)
                    loss = loss_fn(y, pred)
                grads = tape.gradient(loss, model.trainable_variables)
                model.optimizer.apply_gradients(zip(grads, model.trainable_variables))
                row.append(float(loss))
            losses.append(row)
    return losses[-1]


def intact():
    """What the program still reaches after the loops: finite predictions of the right shapes,
    each optimizer's step count, BatchNormalization's moving variance."""
    with tf.device(DEVICE):
        out = []
        for model, (x, _), _ in RUNS:
            pred = model.predict(x, verbose=0)
            out.append(
                {
                    "shape": list(pred.shape),
                    "finite": math.isfinite(float(tf.reduce_sum(tf.abs(pred)))),
                    "iterations": int(model.optimizer.iterations),
                }
            )
        moving_var = RUNS[0][0].layers[1].moving_variance
        return {"models": out, "moving_var": float(tf.reduce_sum(moving_var))}
