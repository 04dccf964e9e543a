"""The program keras-training.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): Keras's losses (values and GradientTape's gradients for the predictions), optimizers
over three steps, learning-rate schedules and the confusion metrics, from the data in INPUT.
keras_training_reference.py computes the same in float64 NumPy. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test
losses = tf.keras.losses


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


# name: (loss, targets, predictions, sample weight); mirrored in keras_training_reference.py.
LOSS_CASES = {
    "bce": (losses.BinaryCrossentropy(), "yb", "pb", None),
    "bce_logits": (losses.BinaryCrossentropy(from_logits=True), "yb", "lb", None),
    "bce_smooth": (losses.BinaryCrossentropy(label_smoothing=0.1), "yb", "pb", None),
    "bce_logits_smooth_sum": (
        losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.2, reduction="sum"),
        "yb",
        "lb",
        None,
    ),
    "bce_weighted": (losses.BinaryCrossentropy(), "yb", "pb", "w"),
    "cce": (losses.CategoricalCrossentropy(), "yc", "pc", None),
    "cce_logits": (losses.CategoricalCrossentropy(from_logits=True), "yc", "lc", None),
    "cce_smooth": (losses.CategoricalCrossentropy(label_smoothing=0.1), "yc", "pc", None),
    "cce_logits_smooth_none": (
        losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.2, reduction="none"),
        "yc",
        "lc",
        None,
    ),
    "cce_axis1": (losses.CategoricalCrossentropy(axis=1), "yc3", "pc3", None),
    "huber": (losses.Huber(), "yh", "ph", None),
    "huber_half": (losses.Huber(delta=0.5), "yh", "ph", None),
    "kld": (losses.KLDivergence(), "yk", "pk", None),
    "bce_fn": ("binary_crossentropy", "yb", "lb", None),
    "huber_fn": ("huber", "yh", "ph", None),
}


def loss_case(loss, y_key, p_key, w_key):
    y = tf.constant(INPUT[y_key])
    p = tf.constant(INPUT[p_key])
    with tf.GradientTape() as tape:
        tape.watch(p)
        if loss == "binary_crossentropy":
            value = losses.binary_crossentropy(y, p, from_logits=True, label_smoothing=0.1)
        elif loss == "huber":
            value = losses.huber(y, p, delta=0.7)
        elif w_key is None:
            value = loss(y, p)
        else:
            value = loss(y, p, sample_weight=tf.constant(INPUT[w_key]))
        total = tf.reduce_sum(value)
    return {"value": flat(value), "grad": flat(tape.gradient(total, p))}


with tf.device(DEVICE):
    RESULT = {"losses": {name: loss_case(*case) for name, case in LOSS_CASES.items()}}
