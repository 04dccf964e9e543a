"""The float64 reference of the merging layers in keras-functional.test.ts, run under Debian's
CPython with NumPy, from Keras's definitions: Add / Subtract / Multiply / Average / Maximum /
Minimum element-wise (broadcasting sizes of 1), Concatenate along ``axis``, Dot as the batched dot
product over ``axes`` (of l2-normalised inputs with ``normalize=True``, TensorFlow's
``l2_normalize``: ``x / sqrt(max(sum(x**2), 1e-12))``), a dot of 1-D rows giving shape (batch, 1);
gradients of ``sum(output * upstream)`` by the chain rule (TensorFlow's maximum passes the gradient
to the first input where it is >=, minimum where <=). A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner


def arr(name):
    return np.array(INPUT[name], dtype=np.float64)


x1, x2, x3, col, a, b = (arr(n) for n in ("x1", "x2", "x3", "col", "a", "b"))


def up(name):
    return arr("up_" + name)


def case(y, grads):
    return {"y": y.ravel().tolist(), "shape": list(y.shape), "grads": [g.ravel().tolist() for g in grads]}


RESULT = {}
u = up("add")
RESULT["add"] = case(x1 + x2 + x3, [u, u, u])
u = up("add_broadcast")
RESULT["add_broadcast"] = case(x1 + col, [u, u.sum(1, keepdims=True)])
u = up("subtract")
RESULT["subtract"] = case(x1 - x2, [u, -u])
u = up("multiply")
RESULT["multiply"] = case(x1 * x2, [u * x2, u * x1])
u = up("average")
RESULT["average"] = case((x1 + x2 + x3) / 3, [u / 3, u / 3, u / 3])
u = up("maximum")
first = x1 >= x2
RESULT["maximum"] = case(np.maximum(x1, x2), [u * first, u * ~first])
u = up("minimum")
first = x1 <= x2
RESULT["minimum"] = case(np.minimum(x1, x2), [u * first, u * ~first])
u = up("concatenate")
RESULT["concatenate"] = case(np.concatenate([x1, col], axis=-1), [u[:, :3], u[:, 3:]])
u = up("concatenate_axis1")
RESULT["concatenate_axis1"] = case(np.concatenate([a, b], axis=1), [u[:, :2], u[:, 2:]])
u = up("dot")
RESULT["dot"] = case((x1 * x2).sum(1, keepdims=True), [u * x2, u * x1])
u = up("dot_normalize")
n1 = np.sqrt(np.maximum((x1**2).sum(1, keepdims=True), 1e-12))
n2 = np.sqrt(np.maximum((x2**2).sum(1, keepdims=True), 1e-12))
cos = ((x1 / n1) * (x2 / n2)).sum(1, keepdims=True)
RESULT["dot_normalize"] = case(cos, [u * (x2 / n2 - cos * x1 / n1) / n1, u * (x1 / n1 - cos * x2 / n2) / n2])
u = up("dot_3d")
RESULT["dot_3d"] = case(a @ b.transpose(0, 2, 1), [u @ b, u.transpose(0, 2, 1) @ a])
RESULT["forms"] = {
    "add": (x1 + x2).ravel().tolist(),
    "subtract": (x1 - x2).ravel().tolist(),
    "multiply": (x1 * x2).ravel().tolist(),
    "average": ((x1 + x2) / 2).ravel().tolist(),
    "maximum": np.maximum(x1, x2).ravel().tolist(),
    "minimum": np.minimum(x1, x2).ravel().tolist(),
    "concatenate": np.concatenate([x1, x2], axis=-1).ravel().tolist(),
    "dot": (x1 * x2).sum(1, keepdims=True).ravel().tolist(),
}
