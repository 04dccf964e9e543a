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


# Optimizers: Keras's update_step formulas; weight decay is the base optimizer's
# `p -= p * lr * wd` before the step; a schedule is evaluated at `iterations` (0 first).


def exponential(lr0, steps, rate, staircase=False):
    return lambda t: lr0 * rate ** (np.floor(t / steps) if staircase else t / steps)


def inverse_time(lr0, steps, rate, staircase=False):
    return lambda t: lr0 / (1 + rate * (np.floor(t / steps) if staircase else t / steps))


def cosine(lr0, steps, alpha=0.0, warmup_target=None, warmup_steps=0):
    def decay(t, start):
        return start * ((1 - alpha) * 0.5 * (1 + np.cos(np.pi * t / steps)) + alpha)

    def rate(t):
        if warmup_target is None:
            return decay(min(t, steps), lr0)
        t = min(t, steps + warmup_steps)
        if t < warmup_steps:
            return lr0 + (warmup_target - lr0) * t / warmup_steps
        return decay(t - warmup_steps, warmup_target)

    return rate


def piecewise(boundaries, values):
    return lambda t: next((v for b, v in zip(boundaries, values) if t <= b), values[-1])


def sgd(momentum=0.0, nesterov=False):
    def step(p, g, s, lr, t):
        if momentum == 0:
            return p - lr * g
        s["m"] = momentum * s.get("m", 0) - lr * g
        return p + (momentum * s["m"] - lr * g if nesterov else s["m"])

    return step


def rmsprop(rho=0.9, momentum=0.0, eps=1e-7, centered=False):
    def step(p, g, s, lr, t):
        s["v"] = rho * s.get("v", 0) + (1 - rho) * g**2
        if centered:
            s["a"] = rho * s.get("a", 0) + (1 - rho) * g
            inc = lr * g / np.sqrt(s["v"] - s["a"] ** 2 + eps)
        else:
            inc = lr * g / np.sqrt(s["v"] + eps)
        if momentum > 0:
            s["m"] = momentum * s.get("m", 0) + inc
            return p - s["m"]
        return p - inc

    return step


def adagrad(init=0.1, eps=1e-7):
    def step(p, g, s, lr, t):
        s["acc"] = s.get("acc", init) + g**2
        return p - lr * g / np.sqrt(s["acc"] + eps)

    return step


def adam(b1=0.9, b2=0.999, eps=1e-7, amsgrad=False):
    def step(p, g, s, lr, t):
        s["m"] = s.get("m", 0) + (g - s.get("m", 0)) * (1 - b1)
        s["v"] = s.get("v", 0) + (g**2 - s.get("v", 0)) * (1 - b2)
        v = s["v"]
        if amsgrad:
            s["vhat"] = np.maximum(s.get("vhat", 0), v)
            v = s["vhat"]
        alpha = lr * np.sqrt(1 - b2 ** (t + 1)) / (1 - b1 ** (t + 1))
        return p - s["m"] * alpha / (np.sqrt(v) + eps)

    return step


def clip_norm(limit):
    return lambda gs: [g * limit / max(np.sqrt((g**2).sum()), limit) for g in gs]


def clip_global(limit):
    def clip(gs):
        norm = np.sqrt(sum((g**2).sum() for g in gs))
        return [g * limit / max(norm, limit) for g in gs]

    return clip


def clip_value(limit):
    return lambda gs: [np.clip(g, -limit, limit) for g in gs]


def const(lr):
    return lambda t: lr


# name: (rule, schedule, weight decay, gradient clipping)
OPTIMIZERS = {
    "sgd": (sgd(), const(0.1), 0, None),
    "sgd_momentum": (sgd(0.9), const(0.1), 0, None),
    "sgd_nesterov": (sgd(0.9, True), const(0.1), 0, None),
    "sgd_weight_decay": (sgd(), const(0.1), 0.05, None),
    "rmsprop": (rmsprop(), const(0.01), 0, None),
    "rmsprop_momentum_centered": (rmsprop(0.8, 0.5, centered=True), const(0.01), 0, None),
    "adagrad": (adagrad(), const(0.1), 0, None),
    "adagrad_init": (adagrad(0.5, 1e-3), const(0.1), 0, None),
    "adamw": (adam(), const(0.01), 0.004, None),
    "adamw_amsgrad": (adam(amsgrad=True), const(0.01), 0.1, None),
    "sgd_clipnorm": (sgd(), const(0.1), 0, clip_norm(0.5)),
    "sgd_global_clipnorm": (sgd(), const(0.1), 0, clip_global(0.8)),
    "sgd_clipvalue": (sgd(), const(0.1), 0, clip_value(0.3)),
    "sgd_exponential_decay": (sgd(0.9), exponential(0.1, 2, 0.5), 0, None),
    "adam_cosine_warmup": (adam(), cosine(0.001, 3, 0.1, 0.01, 1), 0, None),
}


def optimizer_case(rule, schedule, wd, clip):
    params = [arr("w0"), arr("b0")]
    states = [{}, {}]
    values, rates = [], []
    for t in range(3):
        grads = [np.array(INPUT["gw"][t]), np.array(INPUT["gb"][t])]
        if clip is not None:
            grads = clip(grads)
        lr = schedule(t)
        rates.append(lr)
        params = [rule(p * (1 - lr * wd), g, s, lr, t) for p, g, s in zip(params, grads, states)]
        values.append(np.concatenate([p.ravel() for p in params]).tolist())
    return {"values": values, "rates": rates, "iterations": 3}


SCHEDULES = {
    "exponential": exponential(0.1, 3, 0.5),
    "exponential_staircase": exponential(0.1, 3, 0.5, True),
    "inverse_time": inverse_time(0.1, 2, 0.5),
    "inverse_time_staircase": inverse_time(0.1, 2, 0.5, True),
    "cosine": cosine(0.1, 10, alpha=0.1),
    "cosine_warmup": cosine(0.0, 10, warmup_target=0.1, warmup_steps=4),
    "piecewise": piecewise([2, 5], [0.1, 0.05, 0.01]),
}
STEPS = [0, 1, 2, 3, 5, 7, 14, 20]

RESULT = {
    "losses": {name: loss_case(*case) for name, case in LOSS_CASES.items()},
    "optimizers": {name: optimizer_case(*case) for name, case in OPTIMIZERS.items()},
    "schedules": {name: [float(f(t)) for t in STEPS] for name, f in SCHEDULES.items()},
}
