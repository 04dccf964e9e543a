"""The float64 reference of keras-boilerplate.test.ts's keras.ops table, run under Debian's
CPython with NumPy: each op's documented formula and the gradient of sum(upstream * op(inputs))
by the chain rule, input by input. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner
A = {k: np.array(v, dtype=np.float64) for k, v in INPUT.items() if k != "labels"}
x, w, y, p = A["x"], A["w"], A["y"], A["p"]


def up(shape):
    n = int(np.prod(shape))
    return A["upstream"][:n].reshape(shape)


def softmax(z, axis):
    e = np.exp(z - z.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def case(value, *grads_of_g):
    """value, and the gradients as functions of the upstream array g of value's shape."""
    value = np.asarray(value, dtype=np.float64)
    g = up(value.shape)
    return {
        "y": value.ravel().tolist(),
        "shape": list(value.shape),
        "grads": [f(g).ravel().tolist() for f in grads_of_g],
    }


s = softmax(x, -1)
s0 = softmax(x, 0)
sig = 1 / (1 + np.exp(-x))
t = np.tanh(x)
rows, cols = x.shape
top = x.argmax(0)


def max_grad(g):
    out = np.zeros_like(x)
    out[top, np.arange(cols)] = g
    return out


RESULT = {
    "softmax": case(s, lambda g: s * (g - (g * s).sum(-1, keepdims=True))),
    "log_softmax_axis0": case(np.log(s0), lambda g: g - s0 * g.sum(0, keepdims=True)),
    "relu": case(np.maximum(x, 0), lambda g: g * (x > 0)),
    "sigmoid": case(sig, lambda g: g * sig * (1 - sig)),
    "tanh": case(t, lambda g: g * (1 - t**2)),
    "mean_axis1_keepdims": case(x.mean(1, keepdims=True), lambda g: np.broadcast_to(g / cols, x.shape)),
    "sum_all": case(x.sum(), lambda g: np.broadcast_to(g, x.shape)),
    "max_axis0": case(x.max(0), max_grad),
    "matmul": case(x @ w, lambda g: g @ w.T, lambda g: x.T @ g),
    # x [rows, cols] -> reshape (3, 4) -> expand (1, 3, 4) -> transpose (2, 0, 1): (4, 1, 3)
    "reshape_expand_transpose": case(
        x.reshape(3, 4)[None].transpose(2, 0, 1), lambda g: g.transpose(1, 2, 0).reshape(x.shape)
    ),
    "concatenate": case(np.concatenate([x, y], 1), lambda g: g[:, :cols], lambda g: g[:, cols:]),
    "stack": case(np.stack([x, y], 1), lambda g: g[:, 0], lambda g: g[:, 1]),
    "sqrt": case(np.sqrt(p), lambda g: g / (2 * np.sqrt(p))),
    "exp": case(np.exp(x), lambda g: g * np.exp(x)),
    "log": case(np.log(p), lambda g: g / p),
    "abs": case(np.abs(x), lambda g: g * np.sign(x)),
    "square": case(x**2, lambda g: 2 * g * x),
    "clip": case(np.clip(x, -0.5, 0.5), lambda g: g * ((x > -0.5) & (x < 0.5))),
    "where": case(np.where(x > 0, x, y), lambda g: g * (x > 0), lambda g: g * (x <= 0)),
    "add_multiply": case((x + 1.5) * y, lambda g: g * y, lambda g: g * (x + 1.5)),
    "one_hot": case(np.eye(5)[INPUT["labels"]]),
    "argmax_all": case(np.argmax(x)),
    "argmax_last_keepdims": case(np.argmax(x, -1)[:, None]),
    "cast": case(np.trunc(x)),
    "version": "3.3.3",
    "converted": [[1, 2], [3, 4]],
    "shape": [2, 3],
}
