"""Keras's errors for bad arguments to the losses, optimizers, schedules and callbacks, as our
``tensorflow`` raises them (type and message), for keras-training.test.ts. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test
keras = tf.keras


def error_of(make):
    try:
        make()
    except Exception as e:  # noqa: BLE001  the test compares the type and message
        return f"{type(e).__name__}: {e}"
    return "no error"


def set_rate(optimizer, value):
    optimizer.learning_rate = value


with tf.device(DEVICE):
    scheduled = keras.optimizers.SGD(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9))
    RESULT = [
        error_of(lambda: keras.losses.CategoricalCrossentropy()(tf.ones((4, 3)), tf.ones((4, 2)))),
        error_of(lambda: keras.losses.BinaryCrossentropy(label_smoothing=1.5)),
        error_of(lambda: keras.optimizers.SGD(clipnorm=1.0, global_clipnorm=2.0)),
        error_of(lambda: set_rate(scheduled, 0.5)),
        error_of(lambda: keras.optimizers.schedules.PiecewiseConstantDecay([1, 2], [0.1, 0.01])),
        error_of(lambda: keras.callbacks.ReduceLROnPlateau(factor=1.5)),
        error_of(lambda: keras.metrics.AUC(curve="XY")),
        error_of(lambda: keras.callbacks.LearningRateScheduler(lambda epoch: "fast").schedule(0, 0.1)),
    ]
