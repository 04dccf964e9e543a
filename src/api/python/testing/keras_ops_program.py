"""The program keras-boilerplate.test.ts runs under our ``keras`` (Keras 3's ``import keras``, over
our tensorflow in Pyodide, on the CPU and on WebGPU): ``keras.ops`` values and, for the
differentiable ones, GradientTape's gradients of sum(upstream * op(inputs)) with respect to every
input. keras_ops_reference.py computes the same in float64 NumPy. A test fixture."""

import keras
import tensorflow as tf
from keras import ops

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test
UPSTREAM = INPUT["upstream"]


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(tf.cast(t, "float32"), [-1]).numpy()]


def differentiated(fn, *names):
    """fn's value on INPUT's arrays `names`, and the gradients of sum(upstream * value)."""
    xs = [tf.constant(INPUT[n]) for n in names]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        n = 1
        for d in y.shape:
            n *= d
        loss = tf.reduce_sum(y * tf.reshape(tf.constant(UPSTREAM[:n]), list(y.shape)))
    grads = tape.gradient(loss, xs)
    return {"y": flat(y), "shape": list(y.shape), "grads": [flat(g) for g in grads]}


def valued(y):
    return {"y": flat(y), "shape": list(y.shape), "grads": []}


CASES = {
    "softmax": (lambda x: ops.softmax(x), "x"),
    "log_softmax_axis0": (lambda x: ops.log_softmax(x, axis=0), "x"),
    "relu": (ops.relu, "x"),
    "sigmoid": (ops.sigmoid, "x"),
    "tanh": (ops.tanh, "x"),
    "mean_axis1_keepdims": (lambda x: ops.mean(x, axis=1, keepdims=True), "x"),
    "sum_all": (lambda x: ops.sum(x), "x"),
    "max_axis0": (lambda x: ops.max(x, axis=0), "x"),
    "matmul": (ops.matmul, "x", "w"),
    "reshape_expand_transpose": (lambda x: ops.transpose(ops.expand_dims(ops.reshape(x, (3, 4)), 0), (2, 0, 1)), "x"),
    "concatenate": (lambda x, y: ops.concatenate([x, y], axis=1), "x", "y"),
    "stack": (lambda x, y: ops.stack([x, y], axis=1), "x", "y"),
    "sqrt": (ops.sqrt, "p"),
    "exp": (ops.exp, "x"),
    "log": (ops.log, "p"),
    "abs": (ops.abs, "x"),
    "square": (ops.square, "x"),
    "clip": (lambda x: ops.clip(x, -0.5, 0.5), "x"),
    "where": (lambda x, y: ops.where(ops.greater(x, 0), x, y), "x", "y"),
    "add_multiply": (lambda x, y: ops.multiply(ops.add(x, 1.5), y), "x", "y"),
}

with tf.device(DEVICE):
    RESULT = {name: differentiated(fn, *names) for name, (fn, *names) in CASES.items()}
    labels = tf.constant(INPUT["labels"])
    RESULT["one_hot"] = valued(ops.one_hot(labels, 5))
    RESULT["argmax_all"] = valued(ops.argmax(tf.constant(INPUT["x"])))
    RESULT["argmax_last_keepdims"] = valued(ops.argmax(tf.constant(INPUT["x"]), axis=-1, keepdims=True))
    RESULT["cast"] = valued(ops.cast(ops.convert_to_tensor(INPUT["x"]), "int32"))
    numpy_value = ops.convert_to_numpy(ops.convert_to_tensor([[1, 2], [3, 4]]))
    RESULT["version"] = keras.__version__
    RESULT["converted"] = [list(row) for row in numpy_value]
    RESULT["shape"] = list(ops.shape(ops.ones((2, 3))))
