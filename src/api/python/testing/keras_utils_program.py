"""The program keras-boilerplate.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): ``tf.keras.utils.to_categorical`` on flat and column labels, with and without
``num_classes``, and ``normalize`` with its gradient. keras_utils_reference.py computes the same in
float64 NumPy. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


with tf.device(DEVICE):
    labels = INPUT["labels"]
    inferred = tf.keras.utils.to_categorical(labels)
    given = tf.keras.utils.to_categorical(tf.constant([[v] for v in labels]), num_classes=INPUT["classes"])
    x = tf.constant(INPUT["x"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        unit = tf.keras.utils.normalize(x, axis=-1, order=2)
        first = tf.keras.utils.normalize(x, axis=0, order=1)
        loss = tf.reduce_sum(unit * tf.constant(INPUT["upstream"])) + tf.reduce_sum(first)
    grad = tape.gradient(loss, x)
RESULT = {
    "inferred": flat(inferred),
    "inferred_shape": list(inferred.shape),
    "given": flat(given),
    "given_shape": list(given.shape),
    "unit": flat(unit),
    "first": flat(first),
    "grad": flat(grad),
}
