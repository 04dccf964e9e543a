"""The float64 reference of keras-norm-pool.test.ts, run under Debian's CPython with NumPy: the
formulas of Keras's normalisation, pooling and shaping layers as Keras documents them (Keras 3's
sources for the details: BatchNormalization's biased batch variance in the moving-average update
``moving * momentum + batch * (1 - momentum)`` and its masked moments, TensorFlow's 'same'
padding for pooling with the padding left out of the average). Gradients of ``sum(y * upstream)``
are central differences of these float64 forward functions. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner
RESULT = {}
KERAS_EPSILON = 1e-7  # keras.backend.epsilon(), in the masked moments' divisor


def arr(name):
    return np.array(INPUT[name], dtype=np.float64)


def numeric_grads(forward, params, up):
    """d sum(forward(*params) * up) / d each param, by central differences (float64)."""
    grads = []
    h = 1e-6
    for k, p in enumerate(params):
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            plus = [q.copy() for q in params]
            minus = [q.copy() for q in params]
            plus[k][i] += h
            minus[k][i] -= h
            g[i] = (np.sum(forward(*plus) * up) - np.sum(forward(*minus) * up)) / (2 * h)
        grads.append(g)
    return grads


def case(name, forward, params):
    y = forward(*params)
    up = np.array(INPUT["upstream"][: y.size], dtype=np.float64).reshape(y.shape)
    RESULT[f"{name}/y"] = y.ravel().tolist()
    for i, g in enumerate(numeric_grads(forward, params, up)):
        RESULT[f"{name}/d{i}"] = g.ravel().tolist()


def along(v, axis, ndim):
    """A per-channel vector shaped to broadcast along `axis`."""
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


# ---------------------------------------------------------------------------------------------
# BatchNormalization: y = (x - mean) / sqrt(var + epsilon) * gamma + beta; training uses the
# batch's mean and biased variance over every axis but `axis`, inference the moving ones.


def batch_moments(x, axis):
    axes = tuple(d for d in range(x.ndim) if d != axis)
    return x.mean(axis=axes), x.var(axis=axes)


def bn_apply(x, mean, var, gamma, beta, axis, eps):
    n = x.ndim
    normalized = (x - along(mean, axis, n)) / np.sqrt(along(var, axis, n) + eps)
    return normalized * along(gamma, axis, n) + along(beta, axis, n)


def bn_train(axis, eps):
    def forward(x, gamma, beta):
        mean, var = batch_moments(x, axis)
        return bn_apply(x, mean, var, gamma, beta, axis, eps)

    return forward


def moved(moving, batch, momentum):
    return moving * momentum + batch * (1 - momentum)


x3, x3b = arr("x3"), arr("x3b")
gamma4, beta4 = arr("gamma4"), arr("beta4")
mm, mv = arr("mean4"), arr("var4")
for name, x in (("bn_step1", x3), ("bn_step2", x3b)):
    case(name, bn_train(2, 1e-3), [x, gamma4, beta4])
    mean, var = batch_moments(x, 2)
    mm, mv = moved(mm, mean, 0.99), moved(mv, var, 0.99)
    RESULT[f"{name}/moving"] = mm.tolist() + mv.tolist()
case(
    "bn_infer",
    lambda x, gamma, beta: bn_apply(x, mm, mv, gamma, beta, 2, 1e-3),
    [x3, gamma4, beta4],
)
RESULT["bn_infer/moving"] = mm.tolist() + mv.tolist()

case("bn_axis1", bn_train(1, 0.01), [x3, arr("gamma3"), arr("beta3")])
mean, var = batch_moments(x3, 1)
RESULT["bn_axis1/moving"] = moved(arr("mean3"), mean, 0.8).tolist() + moved(arr("var3"), var, 0.8).tolist()

# Masked: Keras's _moments weights each step by the mask (broadcast over the channels).
ids = np.array(INPUT["ids"])
mask = (ids != 0).astype(np.float64)[..., None]


def masked_moments(x):
    count = mask.sum(axis=(0, 1)) + KERAS_EPSILON
    mean = (x * mask).sum(axis=(0, 1)) / count
    var = (mask * (x * mask - mean) ** 2).sum(axis=(0, 1)) / count
    return mean, var


def bn_masked(table, gamma, beta):
    x = table[ids]
    mean, var = masked_moments(x)
    return bn_apply(x, mean, var, gamma, beta, 2, 1e-3)


case("bn_masked", bn_masked, [arr("table"), gamma4, beta4])
mean, var = masked_moments(arr("table")[ids])
RESULT["bn_masked/moving"] = moved(arr("mean4"), mean, 0.5).tolist() + moved(arr("var4"), var, 0.5).tolist()

# ---------------------------------------------------------------------------------------------
# LayerNormalization: each sample over `axes` by its own mean and biased variance; gamma and beta
# shaped like those axes.


def layer_norm(axes, eps):
    def forward(x, gamma, beta):
        mean = x.mean(axis=axes, keepdims=True)
        var = x.var(axis=axes, keepdims=True)
        shape = [x.shape[d] if d in axes else 1 for d in range(x.ndim)]
        return (x - mean) / np.sqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)

    return forward


case("ln", layer_norm((2,), 1e-3), [x3, gamma4, beta4])
case("ln_axes12", layer_norm((1, 2), 1e-3), [x3, arr("gamma34"), arr("beta34")])
case("ln_axis1", layer_norm((1,), 0.1), [x3, arr("gamma3"), arr("beta3")])

# ---------------------------------------------------------------------------------------------
# Softmax over one axis or several (exp(x - logsumexp(x))), Reshape, Rescaling.


def softmax(axes):
    def forward(x):
        e = np.exp(x - x.max(axis=axes, keepdims=True))
        return e / e.sum(axis=axes, keepdims=True)

    return forward


case("softmax", softmax((2,)), [x3])
case("softmax_axis1", softmax((1,)), [x3])
case("softmax_axes12", softmax((1, 2)), [x3])
case("reshape", lambda x: x.reshape(2, 4, 3), [x3])
case("rescaling", lambda x: x * 0.5 - 1.0, [x3])

# ---------------------------------------------------------------------------------------------
# Pooling, channels-last. TensorFlow's 'same': out = ceil(n / stride), padding
# max((out - 1) * stride + size - n, 0) split with the odd one after; each average is over the
# window's positions inside the input only.


def windows(n, size, stride, padding):
    """Each output's [start, end) along one axis, clipped to the input."""
    if padding == "valid":
        return [(o * stride, o * stride + size) for o in range((n - size) // stride + 1)]
    out = -(-n // stride)
    before = max((out - 1) * stride + size - n, 0) // 2
    return [(max(o * stride - before, 0), min(o * stride - before + size, n)) for o in range(out)]


def avg_pool1d(size, stride, padding):
    def forward(x):
        spans = windows(x.shape[1], size, stride, padding)
        return np.stack([x[:, a:b].mean(axis=1) for a, b in spans], axis=1)

    return forward


def avg_pool2d(size, stride, padding):
    def forward(x):
        rows = windows(x.shape[1], size[0], stride[0], padding)
        cols = windows(x.shape[2], size[1], stride[1], padding)
        return np.stack(
            [np.stack([x[:, a:b, c:d].mean(axis=(1, 2)) for c, d in cols], axis=1) for a, b in rows],
            axis=1,
        )

    return forward


seq, img = arr("seq"), arr("img")
case("avg1d", avg_pool1d(2, 2, "valid"), [seq])
case("avg1d_same", avg_pool1d(3, 2, "same"), [seq])
case("avg2d", avg_pool2d((2, 2), (2, 2), "valid"), [img])
case("avg2d_same", avg_pool2d((2, 3), (2, 2), "same"), [img])
case("gap1d", lambda x: x.mean(axis=1), [seq])
case("gap1d_keep", lambda x: x.mean(axis=1, keepdims=True), [seq])
case("gap2d", lambda x: x.mean(axis=(1, 2)), [img])
case("gmp1d", lambda x: x.max(axis=1), [seq])
case("gmp2d_keep", lambda x: x.max(axis=(1, 2), keepdims=True), [img])
# Keras's GlobalAveragePooling1D with a mask: sum(x * mask) / sum(mask) over the steps.
case(
    "gap1d_masked",
    lambda table: (table[ids] * mask).sum(axis=1) / mask.sum(axis=1),
    [arr("table")],
)
