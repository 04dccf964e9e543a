"""The float64 reference of keras-training.test.ts, run under Debian's CPython with NumPy: Keras's
losses, optimizers, learning-rate schedules and confusion metrics as TF 2.15's Keras documents
and computes them, written from its formulas. Gradients of the losses are central differences of
the float64 formulas (every test input is away from clip bounds and kinks). A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner
EPS = 1e-7  # Keras's backend epsilon


def arr(key):
    return np.array(INPUT[key], dtype=np.float64)


def numgrad(f, x, h=1e-6):
    """d sum(f(x)) / dx by central differences."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (np.sum(f(up)) - np.sum(f(down))) / (2 * h)
    return g


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def log_softmax(x, axis=-1):
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def bce(y, p, from_logits=False, smoothing=0.0):
    y = y * (1 - smoothing) + 0.5 * smoothing
    if from_logits:
        # tf.nn.sigmoid_cross_entropy_with_logits
        per = np.maximum(p, 0) - p * y + np.log1p(np.exp(-np.abs(p)))
    else:
        q = np.clip(p, EPS, 1 - EPS)
        per = -(y * np.log(q + EPS) + (1 - y) * np.log(1 - q + EPS))
    return per.mean(axis=-1)


def cce(y, p, from_logits=False, smoothing=0.0, axis=-1):
    y = np.moveaxis(y, axis, -1)
    p = np.moveaxis(p, axis, -1)
    y = y * (1 - smoothing) + smoothing / y.shape[-1]
    if from_logits:
        logp = log_softmax(p)
    else:
        q = np.clip(p / p.sum(axis=-1, keepdims=True), EPS, 1 - EPS)
        logp = np.log(q)
    return -(y * logp).sum(axis=-1)


def huber(y, p, delta=1.0):
    e = p - y
    a = np.abs(e)
    return np.where(a <= delta, 0.5 * e**2, delta * a - 0.5 * delta**2).mean(axis=-1)


def kld(y, p):
    y = np.clip(y, EPS, 1)
    p = np.clip(p, EPS, 1)
    return (y * np.log(y / p)).sum(axis=-1)


def reduce(per, reduction="sum_over_batch_size", weight=None):
    if weight is not None:
        per = per * weight
    if reduction == "none":
        return per
    total = per.sum()
    return total if reduction == "sum" else total / per.size


LOSS_CASES = {
    "bce": (lambda y, p: reduce(bce(y, p)), "yb", "pb"),
    "bce_logits": (lambda y, p: reduce(bce(y, p, True)), "yb", "lb"),
    "bce_smooth": (lambda y, p: reduce(bce(y, p, False, 0.1)), "yb", "pb"),
    "bce_logits_smooth_sum": (lambda y, p: reduce(bce(y, p, True, 0.2), "sum"), "yb", "lb"),
    "bce_weighted": (lambda y, p: reduce(bce(y, p), weight=arr("w")), "yb", "pb"),
    "cce": (lambda y, p: reduce(cce(y, p)), "yc", "pc"),
    "cce_logits": (lambda y, p: reduce(cce(y, p, True)), "yc", "lc"),
    "cce_smooth": (lambda y, p: reduce(cce(y, p, False, 0.1)), "yc", "pc"),
    "cce_logits_smooth_none": (lambda y, p: reduce(cce(y, p, True, 0.2), "none"), "yc", "lc"),
    "cce_axis1": (lambda y, p: reduce(cce(y, p, axis=1)), "yc3", "pc3"),
    "huber": (lambda y, p: reduce(huber(y, p)), "yh", "ph"),
    "huber_half": (lambda y, p: reduce(huber(y, p, 0.5)), "yh", "ph"),
    "kld": (lambda y, p: reduce(kld(y, p)), "yk", "pk"),
    # The function forms give the unreduced per-sample losses.
    "bce_fn": (lambda y, p: bce(y, p, True, 0.1), "yb", "lb"),
    "huber_fn": (lambda y, p: huber(y, p, 0.7), "yh", "ph"),
}


def loss_case(f, y_key, p_key):
    y, p = arr(y_key), arr(p_key)
    value = np.atleast_1d(f(y, p))
    return {"value": value.ravel().tolist(), "grad": numgrad(lambda q: f(y, q), p).ravel().tolist()}


RESULT = {"losses": {name: loss_case(*case) for name, case in LOSS_CASES.items()}}
