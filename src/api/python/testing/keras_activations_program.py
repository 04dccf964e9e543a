"""The program keras-boilerplate.test.ts runs under our ``keras`` (Pyodide, on the CPU and on
WebGPU): ``keras.activations`` with Keras's arguments, values and GradientTape's gradients of
sum(upstream * activation(x)), and Dense with activations given by name.
keras_activations_reference.py computes the same in float64 NumPy. A test fixture."""

import keras
import tensorflow as tf
from keras import activations as A

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


CASES = {
    "relu_args": lambda x: A.relu(x, negative_slope=0.1, max_value=1.5, threshold=0.2),
    "elu_alpha": lambda x: A.elu(x, alpha=0.7),
    "selu": A.selu,
    "gelu": A.gelu,
    "gelu_tanh": lambda x: A.gelu(x, approximate=True),
    "silu": A.silu,
    "softsign": A.softsign,
    "relu6": lambda x: A.relu6(x * 4.0),
    "mish": A.mish,
    "leaky_relu": A.leaky_relu,
    "hard_silu": lambda x: A.hard_silu(x * 2.0),
    "softmax_axis0": lambda x: A.softmax(x, axis=0),
    "exponential": A.exponential,
    "get_swish": keras.activations.get("swish"),
}

RESULT = {}
with tf.device(DEVICE):
    for name, fn in CASES.items():
        x = tf.constant(INPUT["x"])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
            loss = tf.reduce_sum(y * tf.constant(INPUT["upstream"]))
        RESULT[name] = {"y": flat(y), "grad": flat(tape.gradient(loss, x))}
    for name in ("gelu", "selu", "leaky_relu"):
        layer = keras.layers.Dense(3, activation=name)
        layer.build((None, 4))
        layer.set_weights([INPUT["kernel"], [0.0, 0.0, 0.0]])
        RESULT[f"dense_{name}"] = {"y": flat(layer(tf.constant(INPUT["x"]))), "grad": []}
