"""The merging-layer program of keras-functional.test.ts, run under our ``tensorflow`` (Pyodide,
on the CPU and on WebGPU): each merging layer (and functional form) on the tensors in INPUT, its
output and GradientTape's gradients for each input of ``sum(output * upstream)``.
keras_merging_reference.py computes the same in float64 NumPy. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


def run(name, layer, names):
    xs = [tf.constant(INPUT[n]) for n in names]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = layer(xs)
        loss = tf.reduce_sum(y * tf.constant(INPUT["up_" + name]))
    return {"y": flat(y), "shape": list(y.shape), "grads": [flat(g) for g in tape.gradient(loss, xs)]}


with tf.device(DEVICE):
    layers = tf.keras.layers
    CASES = {
        "add": (layers.Add(), ["x1", "x2", "x3"]),
        "add_broadcast": (layers.Add(), ["x1", "col"]),
        "subtract": (layers.Subtract(), ["x1", "x2"]),
        "multiply": (layers.Multiply(), ["x1", "x2"]),
        "average": (layers.Average(), ["x1", "x2", "x3"]),
        "maximum": (layers.Maximum(), ["x1", "x2"]),
        "minimum": (layers.Minimum(), ["x1", "x2"]),
        "concatenate": (layers.Concatenate(), ["x1", "col"]),
        "concatenate_axis1": (layers.Concatenate(axis=1), ["a", "b"]),
        "dot": (layers.Dot(axes=1), ["x1", "x2"]),
        "dot_normalize": (layers.Dot(axes=1, normalize=True), ["x1", "x2"]),
        "dot_3d": (layers.Dot(axes=(2, 2)), ["a", "b"]),
    }
    RESULT = {name: run(name, layer, names) for name, (layer, names) in CASES.items()}
    forms = [tf.constant(INPUT["x1"]), tf.constant(INPUT["x2"])]
    RESULT["forms"] = {
        "add": flat(layers.add(forms)),
        "subtract": flat(layers.subtract(forms)),
        "multiply": flat(layers.multiply(forms)),
        "average": flat(layers.average(forms)),
        "maximum": flat(layers.maximum(forms)),
        "minimum": flat(layers.minimum(forms)),
        "concatenate": flat(layers.concatenate(forms, axis=-1)),
        "dot": flat(layers.dot(forms, axes=1)),
    }
