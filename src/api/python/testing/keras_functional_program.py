"""The program keras-functional.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): a two-input functional model — a Dense branch per input, Concatenate, a shared Dense used
twice, a residual Add — from the weights in INPUT; its output and GradientTape's gradients for the
inputs and every weight, a two-output model over the same graph, one SGD fit epoch, predict on a
list of inputs, KerasTensor reprs and shapes, the summary and Keras's errors.
keras_functional_reference.py computes the numbers in float64 NumPy. A test fixture."""

import contextlib
import io

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test
NAMES = ["branch_a", "branch_b", "shared", "proj", "head"]


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


def error_of(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001  the test compares the type and message
        return [type(error).__name__, str(error)]
    return None


with tf.device(DEVICE):
    tf.keras.backend.clear_session()
    layers = tf.keras.layers
    plain = tf.keras.Input(shape=(784,))
    a = tf.keras.Input(shape=(4,), name="a")
    b = layers.Input(shape=(3,), name="b")
    h1 = layers.Dense(4, activation="relu", name="branch_a")(a)
    h2 = layers.Dense(4, activation="tanh", name="branch_b")(b)
    shared = layers.Dense(5, activation="tanh", name="shared")
    s1 = shared(layers.Concatenate(name="cat")([h1, h2]))
    res = layers.Add(name="residual")([s1, layers.Dense(5, name="proj")(a)])
    s2 = shared(layers.concatenate([h2, h1]))
    out = layers.Dense(2, name="head")(layers.add([res, s2]))
    model = tf.keras.Model(inputs=[a, b], outputs=out, name="two_branch")
    for name in NAMES:
        model.get_layer(name).set_weights([INPUT[name]["kernel"], INPUT[name]["bias"]])

    xa = tf.constant(INPUT["xa"])
    xb = tf.constant(INPUT["xb"])
    with tf.GradientTape() as tape:
        tape.watch(xa)
        tape.watch(xb)
        y = model([xa, xb])
        loss = tf.reduce_sum(y * tf.constant(INPUT["upstream"]))
    weights = [getattr(model.get_layer(n), w) for n in NAMES for w in ("kernel", "bias")]
    grads = tape.gradient(loss, [xa, xb] + weights)
    two = tf.keras.Model([a, b], [out, res])
    y_two = two({"a": xa, "b": xb})

    summary = io.StringIO()
    with contextlib.redirect_stdout(summary):
        model.summary()

    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.fit([xa, xb], tf.constant(INPUT["target"]), batch_size=5, epochs=1, shuffle=False, verbose=0)
    after_fit = [flat(w) for w in weights]
    predicted = model.predict([xa, xb], batch_size=3, verbose=0)
    predicted_dict = model.predict({"a": xa, "b": xb}, batch_size=3, verbose=0)
    two.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss=["mse", "huber"], loss_weights=[1.0, 0.5])
    labels = {"head": tf.constant(INPUT["target"]), "residual": tf.constant(INPUT["target_res"])}
    two.fit([xa, xb], labels, batch_size=5, epochs=1, shuffle=False, verbose=0)
    after_two = [flat(w) for w in weights]

    class Scale(tf.keras.layers.Layer):
        """A Python subclass in a functional graph: its call runs on the stand-ins too."""

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return x * (self.w + 1.0)

    scaled = tf.keras.Model(a, Scale(name="scale")(a))
    doubled = flat(scaled(xa))
    seq = tf.keras.Sequential([tf.keras.Input(shape=(6,)), layers.Dense(3, name="seq_dense")])
    seq_summary = io.StringIO()
    with contextlib.redirect_stdout(seq_summary):
        seq.summary()

    wide = layers.Dense(5, name="wide")(a)
    errors = {
        "add_shapes": error_of(lambda: layers.Add(name="bad_add")([h1, wide])),
        "concat_shapes": error_of(lambda: layers.Concatenate(axis=1)([h1, tf.keras.Input(shape=(2, 3))])),
        "input_count": error_of(lambda: model(xa)),
        "input_shape": error_of(lambda: model([xa, xa])),
        "disconnected": error_of(lambda: tf.keras.Model(a, out)),
        "not_a_list": error_of(lambda: layers.Add()(h1)),
    }

RESULT = {
    "y": flat(y),
    "grads": [flat(g) for g in grads],
    "two": [flat(t) for t in y_two],
    "after_fit": after_fit,
    "after_two": after_two,
    "predicted": flat(predicted),
    "predicted_dict": flat(predicted_dict),
    "reprs": [repr(plain), repr(a), repr(out)],
    "shapes": [repr(plain.shape), str(tuple(out.shape)), repr(plain.dtype), out.shape.rank],
    "names": [layer.name for layer in model.layers],
    "third": [model.get_layer(index=2).name, model.get_layer("head").name],
    "ids": repr(tf.keras.Input(shape=(None, 3), dtype=tf.int32, name="ids")),
    "inputs": [t.name for t in model.inputs],
    "count": model.count_params(),
    "summary": summary.getvalue(),
    "errors": errors,
    "doubled": doubled,
    "seq_summary": seq_summary.getvalue(),
}
