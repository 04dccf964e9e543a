"""The float64 reference of keras-tf-ops.test.ts, run under Debian's CPython with NumPy: each tf.nn
and tf.* item by TensorFlow's documented formula (tf.nn.sigmoid_cross_entropy_with_logits's stable
``max(x, 0) - x * z + log(1 + exp(-|x|))``, softmax cross-entropies as ``-sum(labels *
log_softmax(logits))``, l2_normalize as ``x / sqrt(max(sum(x**2), epsilon))``, moments' biased
variance, the population reduce_std/reduce_variance, cumsum's exclusive and reverse forms, …),
and the gradients of ``sum(y * w)`` (w: cos(1 + i) over y's entries) by central differences in
float64, which the inputs keep away from every kink. A test fixture."""

import math

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner

I = INPUT  # noqa: E741  short for the many uses below
mask = np.array(I["mask"], dtype=bool)
columns = np.array(I["columns"], dtype=bool)
labels = np.array(I["labels"])


erf = np.vectorize(math.erf)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def log_softmax(x, axis=-1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def softmax(x, axis=-1):
    return np.exp(log_softmax(x, axis))


def l2_normalize(x, axis=None, epsilon=1e-12):
    return x / np.sqrt(np.maximum((x**2).sum(axis=axis, keepdims=True), epsilon))


def moments(x, axes, keepdims=False):
    mean = x.mean(axis=tuple(axes), keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=tuple(axes), keepdims=True)
    if keepdims:
        return mean, variance
    return mean.squeeze(axis=tuple(axes)), variance.squeeze(axis=tuple(axes))


def logsumexp(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis)


def top_k(x, k):
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order


def cumsum(x, axis, exclusive=False, reverse=False):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis)
    if exclusive:
        out = out - x
    return np.flip(out, axis) if reverse else out


DIFFERENTIABLE = {
    "softmax": (lambda x: softmax(x), ["x"]),
    "softmax_axis0": (lambda x: softmax(x, 0), ["x"]),
    "log_softmax": (lambda x: log_softmax(x), ["x"]),
    "relu": (lambda x: np.maximum(x, 0), ["x"]),
    "sigmoid_ce": (lambda z, x: np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x))), ["z", "x"]),
    "softmax_ce": (lambda p, x: -(p * log_softmax(x)).sum(-1), ["p", "x"]),
    "softmax_ce_axis0": (lambda p, x: -(p * log_softmax(x, 0)).sum(0), ["p", "x"]),
    "sparse_ce": (lambda x: -log_softmax(x)[np.arange(len(labels)), labels], ["x"]),
    "l2_normalize": (lambda x: l2_normalize(x, 1), ["x"]),
    "l2_normalize_all": (lambda x: l2_normalize(x), ["x"]),
    "moments": (lambda x: np.concatenate(moments(x, [0]), 0), ["x"]),
    "moments_keepdims": (lambda x: np.concatenate(moments(x, [0, 1], keepdims=True), 1), ["x"]),
    "boolean_mask": (lambda x: x[mask], ["x"]),
    "boolean_mask_axis1": (lambda x: x[:, columns], ["x"]),
    "gather": (lambda x: x[np.array([[2, 0], [1, 1]])], ["x"]),
    "gather_axis1": (lambda x: x[:, [3, 0, 3]], ["x"]),
    "concat": (lambda x, a: np.concatenate([x, a], 1), ["x", "a"]),
    "stack": (lambda x, a: np.stack([x, a], 1), ["x", "a"]),
    "unstack": (lambda x: x[:, 2], ["x"]),
    "reduce_sum_tuple": (lambda x: x.sum(axis=(0, 1)), ["x"]),
    "reduce_sum_keepdims": (lambda x: x.sum(axis=1, keepdims=True), ["x"]),
    "reduce_mean": (lambda x: x.mean(axis=0), ["x"]),
    "reduce_max": (lambda x: x.max(axis=1), ["x"]),
    "reduce_min": (lambda x: x.min(axis=0, keepdims=True), ["x"]),
    "reduce_prod": (lambda x: x.prod(axis=1), ["x"]),
    "reduce_prod_all": (lambda a: a.prod(), ["a"]),
    "reduce_std": (lambda x: x.std(axis=0), ["x"]),
    "reduce_variance": (lambda x: x.var(axis=1, keepdims=True), ["x"]),
    "reduce_logsumexp": (lambda x: logsumexp(x, -1), ["x"]),
    "top_k_values": (lambda x: top_k(x, 2)[0], ["x"]),
    "clip_by_value": (lambda x: np.clip(x, -0.5, 0.5), ["x"]),
    "cumsum": (lambda x: cumsum(x, 1), ["x"]),
    "cumsum_exclusive_reverse": (lambda x: cumsum(x, 1, exclusive=True, reverse=True), ["x"]),
    "einsum": (lambda x, b: np.einsum("ij,jk->ik", x, b), ["x", "b"]),
    "linalg_matmul": (lambda x, a: x @ a.T, ["x", "a"]),
    "where": (lambda x, a: np.where(mask, x, a), ["x", "a"]),
    "transpose": (lambda x: x.T, ["x"]),
    "transpose_perm": (lambda x: x.reshape(3, 2, 2).transpose(1, 2, 0), ["x"]),
    "expand_dims": (lambda x: x[:, None], ["x"]),
    "squeeze": (lambda x: x.reshape(3, 1, 4, 1).squeeze(1), ["x"]),
    "tile": (lambda x: np.tile(x, (2, 1)), ["x"]),
    "square": (lambda x: x**2, ["x"]),
    "norm": (lambda x: np.sqrt((x**2).sum(1)), ["x"]),
    "leaky_relu": (lambda x: np.where(x > 0, x, 0.2 * x), ["x"]),
    "leaky_relu_alpha": (lambda x: np.where(x > 0, x, 0.1 * x), ["x"]),
    "elu": (lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))), ["x"]),
    "gelu": (lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2))), ["x"]),
    "gelu_tanh": (lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))), ["x"]),
    "silu": (lambda x: x * sigmoid(x), ["x"]),
    "swish_beta": (lambda x: x * sigmoid(1.5 * x), ["x"]),
    "relu6": (lambda x: np.clip(x * 4, 0, 6), ["x"]),
    "bias_add": (lambda x, a: x + a[0], ["x", "a"]),
    "split_sizes": (lambda x: x[:, 1:], ["x"]),
    "split_even": (lambda x: x[:, :2], ["x"]),
    "reverse": (lambda x: x[:, ::-1], ["x"]),
    "reduce_euclidean_norm": (lambda x: np.sqrt((x**2).sum(0)), ["x"]),
    "log_sigmoid": (lambda x: -np.log1p(np.exp(-x)), ["x"]),
    "gather_batch_dims": (lambda x: np.take_along_axis(x, np.array([[0, 2, 2], [1, 1, 0], [3, 0, 1]]), 1), ["x"]),
    "gather_batch_dims_axis2": (
        lambda x: np.stack([x.reshape(3, 2, 2)[i][:, [j]] for i, j in enumerate([1, 0, 1])]),
        ["x"],
    ),
}


def weights(shape):
    return np.cos(1.0 + np.arange(int(np.prod(shape)))).reshape(shape)


def value_and_grads(fn, *arrays):
    xs = [np.array(a, dtype=np.float64) for a in arrays]
    y = np.asarray(fn(*xs), dtype=np.float64)
    w = weights(y.shape)
    grads = []
    h = 1e-6
    for i, x in enumerate(xs):
        g = np.zeros_like(x)
        for j in np.ndindex(x.shape):
            up = [v.copy() for v in xs]
            down = [v.copy() for v in xs]
            up[i][j] += h
            down[i][j] -= h
            g[j] = ((np.asarray(fn(*up)) * w).sum() - (np.asarray(fn(*down)) * w).sum()) / (2 * h)
        grads.append(g.ravel().tolist())
    return {"y": y.ravel().tolist(), "shape": list(y.shape), "grads": grads}


x = np.array(I["x"], dtype=np.float64)
VALUES = {
    "argmax": x.argmax(0),
    "argmax_axis1": x.argmax(1),
    "argmin_axis1": x.argmin(1),
    "top_k_indices": top_k(x, 3)[1],
    "one_hot": np.eye(4)[labels],
    "one_hot_on_off_axis0": np.array([[5.0, -1, -1], [-1, -1, -1], [-1, 5, -1]]),
    "where_indices": np.argwhere(mask),
    "equal": (x > 0) == mask,
    "greater": x > 0.5,
    "reduce_any": mask.any(1),
    "reduce_all": mask.all(0),
    "sort_descending": -np.sort(-x, axis=-1),
    "argsort": np.argsort(x, axis=0, kind="stable"),
    "shape": np.array(x.shape),
    "size": np.array(x.size),
    "rank": np.array(x.ndim),
    "fill": np.full((2, 3), 7),
    "zeros_like": np.zeros_like(x),
    "ones_like": np.ones_like(x),
    "linspace": np.linspace(-1.0, 2.0, 7),
    "eye": np.eye(2, 3),
    "round": np.round([0.5, 1.5, 2.5, -0.5, -1.5, 1.4, -2.6]),
    "ceil": np.ceil(x),
    "count_nonzero": mask.sum(1),
    "confusion_matrix": [[1, 0, 0], [0, 1, 1], [0, 0, 1]],
    "confusion_matrix_weighted": [[0, 0.5], [0, 2.0]],
}

RESULT = {
    "grads": {name: value_and_grads(fn, *[I[n] for n in inputs]) for name, (fn, inputs) in DIFFERENTIABLE.items()},
    "values": {name: np.asarray(v, dtype=np.float64).ravel().tolist() for name, v in VALUES.items()},
}
