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


opt = tf.keras.optimizers
sched = tf.keras.optimizers.schedules
WARMUP = sched.CosineDecay(0.001, 3, alpha=0.1, warmup_target=0.01, warmup_steps=1)
OPTIMIZERS = {
    "sgd": lambda: opt.SGD(0.1),
    "sgd_momentum": lambda: opt.SGD(0.1, momentum=0.9),
    "sgd_nesterov": lambda: opt.SGD(learning_rate=0.1, momentum=0.9, nesterov=True),
    "sgd_weight_decay": lambda: opt.SGD(0.1, weight_decay=0.05),
    "rmsprop": lambda: opt.RMSprop(0.01),
    "rmsprop_momentum_centered": lambda: opt.RMSprop(0.01, rho=0.8, momentum=0.5, centered=True),
    "adagrad": lambda: opt.Adagrad(0.1),
    "adagrad_init": lambda: opt.Adagrad(0.1, initial_accumulator_value=0.5, epsilon=1e-3),
    "adamw": lambda: opt.AdamW(0.01),
    "adamw_amsgrad": lambda: opt.AdamW(0.01, weight_decay=0.1, amsgrad=True),
    "sgd_clipnorm": lambda: opt.SGD(0.1, clipnorm=0.5),
    "sgd_global_clipnorm": lambda: opt.SGD(0.1, global_clipnorm=0.8),
    "sgd_clipvalue": lambda: opt.SGD(0.1, clipvalue=0.3),
    "sgd_exponential_decay": lambda: opt.SGD(sched.ExponentialDecay(0.1, 2, 0.5), momentum=0.9),
    "adam_cosine_warmup": lambda: opt.Adam(WARMUP),
}


def optimizer_case(make):
    """Three apply_gradients steps on two variables; their values and the rates after each."""
    optimizer = make()
    w = tf.Variable(INPUT["w0"])
    b = tf.Variable(INPUT["b0"])
    values, rates = [], []
    for step in range(3):
        grads = [tf.constant(INPUT["gw"][step]), tf.constant(INPUT["gb"][step])]
        rates.append(float(optimizer.learning_rate))
        optimizer.apply_gradients(zip(grads, [w, b]))
        values.append(flat(w) + flat(b))
    return {"values": values, "rates": rates, "iterations": int(optimizer.iterations)}


SCHEDULES = {
    "exponential": sched.ExponentialDecay(0.1, 3, 0.5),
    "exponential_staircase": sched.ExponentialDecay(0.1, 3, 0.5, staircase=True),
    "inverse_time": sched.InverseTimeDecay(0.1, 2, 0.5),
    "inverse_time_staircase": sched.InverseTimeDecay(0.1, 2, 0.5, staircase=True),
    "cosine": sched.CosineDecay(0.1, 10, alpha=0.1),
    "cosine_warmup": sched.CosineDecay(0.0, 10, warmup_target=0.1, warmup_steps=4),
    "piecewise": sched.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01]),
}
STEPS = [0, 1, 2, 3, 5, 7, 14, 20]

# The test runs the losses and the optimizers as two tests (each is kept short on SwiftShader).
SECTION = INPUT["section"]
with tf.device(DEVICE):
    if SECTION == "losses":
        RESULT = {"losses": {name: loss_case(*case) for name, case in LOSS_CASES.items()}}
    else:
        RESULT = {
            "optimizers": {name: optimizer_case(make) for name, make in OPTIMIZERS.items()},
            "schedules": {name: [float(s(t)) for t in STEPS] for name, s in SCHEDULES.items()},
        }
