"""The program keras-dense-formula.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and
on WebGPU): Dense with tanh from the weights in INPUT, and GradientTape's gradients for the input,
kernel and bias. keras_dense_reference.py computes the same in float64 NumPy. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


with tf.device(DEVICE):
    layer = tf.keras.layers.Dense(3, activation="tanh")
    x = tf.constant(INPUT["x"])
    layer.build((None, 4))
    layer.set_weights([INPUT["kernel"], INPUT["bias"]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.constant(INPUT["upstream"]))
    grads = tape.gradient(loss, [x, layer.kernel, layer.bias])
RESULT = {"y": flat(y), "grads": [flat(g) for g in grads]}
