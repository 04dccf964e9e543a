"""The program keras-tf-ops.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): tf.nn and tf.* tensor functions on the tensors in INPUT, each item's value and the
gradients GradientTape gives for its float inputs of ``sum(y * w)`` (w: cos(1 + i) over y's
entries), and the values of the non-differentiable items. keras_tf_ops_reference.py computes the
same in float64 NumPy. A test fixture."""

import math

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(tf.cast(t, tf.float32), [-1]).numpy()]


def weights(shape):
    n = math.prod(shape)
    return tf.reshape(tf.constant([math.cos(1.0 + i) for i in range(n)]), list(shape))


def value_and_grads(fn, *arrays):
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        loss = tf.reduce_sum(y * weights(tuple(y.shape)))
    return {"y": flat(y), "shape": list(y.shape), "grads": [flat(g) for g in tape.gradient(loss, xs)]}


I = INPUT  # noqa: E741  short for the many uses below
mask = I["mask"]
labels = I["labels"]

DIFFERENTIABLE = {
    "softmax": (lambda x: tf.nn.softmax(x), ["x"]),
    "softmax_axis0": (lambda x: tf.nn.softmax(x, axis=0), ["x"]),
    "log_softmax": (lambda x: tf.nn.log_softmax(x), ["x"]),
    "relu": (lambda x: tf.nn.relu(x), ["x"]),
    "sigmoid_ce": (lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), ["z", "x"]),
    "softmax_ce": (lambda p, x: tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x), ["p", "x"]),
    "softmax_ce_axis0": (lambda p, x: tf.nn.softmax_cross_entropy_with_logits(p, x, axis=0), ["p", "x"]),
    "sparse_ce": (
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(labels), logits=x),
        ["x"],
    ),
    "l2_normalize": (lambda x: tf.nn.l2_normalize(x, axis=1), ["x"]),
    "l2_normalize_all": (lambda x: tf.math.l2_normalize(x), ["x"]),
    "moments": (lambda x: tf.concat(list(tf.nn.moments(x, axes=[0])), 0), ["x"]),
    "moments_keepdims": (lambda x: tf.concat(tf.nn.moments(x, axes=(0, 1), keepdims=True), 1), ["x"]),
    "boolean_mask": (lambda x: tf.boolean_mask(x, tf.constant(mask)), ["x"]),
    "boolean_mask_axis1": (lambda x: tf.boolean_mask(x, I["columns"], axis=1), ["x"]),
    "gather": (lambda x: tf.gather(x, [[2, 0], [1, 1]]), ["x"]),
    "gather_axis1": (lambda x: tf.gather(x, [3, 0, 3], axis=1), ["x"]),
    "concat": (lambda x, a: tf.concat([x, a], axis=1), ["x", "a"]),
    "stack": (lambda x, a: tf.stack([x, a], axis=1), ["x", "a"]),
    "unstack": (lambda x: tf.unstack(x, axis=1)[2], ["x"]),
    "reduce_sum_tuple": (lambda x: tf.reduce_sum(x, axis=(0, 1)), ["x"]),
    "reduce_sum_keepdims": (lambda x: tf.reduce_sum(x, axis=1, keepdims=True), ["x"]),
    "reduce_mean": (lambda x: tf.reduce_mean(x, axis=[0]), ["x"]),
    "reduce_max": (lambda x: tf.reduce_max(x, axis=1), ["x"]),
    "reduce_min": (lambda x: tf.math.reduce_min(x, axis=0, keepdims=True), ["x"]),
    "reduce_prod": (lambda x: tf.reduce_prod(x, axis=1), ["x"]),
    "reduce_prod_all": (lambda a: tf.reduce_prod(a), ["a"]),
    "reduce_std": (lambda x: tf.math.reduce_std(x, axis=0), ["x"]),
    "reduce_variance": (lambda x: tf.math.reduce_variance(x, axis=1, keepdims=True), ["x"]),
    "reduce_logsumexp": (lambda x: tf.reduce_logsumexp(x, axis=-1), ["x"]),
    "top_k_values": (lambda x: tf.math.top_k(x, k=2).values, ["x"]),
    "clip_by_value": (lambda x: tf.clip_by_value(x, -0.5, 0.5), ["x"]),
    "cumsum": (lambda x: tf.cumsum(x, axis=1), ["x"]),
    "cumsum_exclusive_reverse": (lambda x: tf.math.cumsum(x, axis=1, exclusive=True, reverse=True), ["x"]),
    "einsum": (lambda x, b: tf.einsum("ij,jk->ik", x, b), ["x", "b"]),
    "linalg_matmul": (lambda x, a: tf.linalg.matmul(x, a, transpose_b=True), ["x", "a"]),
    "where": (lambda x, a: tf.where(tf.constant(mask), x, a), ["x", "a"]),
    "transpose": (lambda x: tf.transpose(x), ["x"]),
    "transpose_perm": (lambda x: tf.transpose(tf.reshape(x, [3, 2, 2]), perm=[1, 2, 0]), ["x"]),
    "expand_dims": (lambda x: tf.expand_dims(x, 1), ["x"]),
    "squeeze": (lambda x: tf.squeeze(tf.reshape(x, [3, 1, 4, 1]), axis=[1]), ["x"]),
    "tile": (lambda x: tf.tile(x, [2, 1]), ["x"]),
    "square": (lambda x: tf.square(x), ["x"]),
    "norm": (lambda x: tf.norm(x, axis=1), ["x"]),
    "leaky_relu": (lambda x: tf.nn.leaky_relu(x), ["x"]),
    "leaky_relu_alpha": (lambda x: tf.nn.leaky_relu(x, alpha=0.1), ["x"]),
    "elu": (lambda x: tf.nn.elu(x), ["x"]),
    "gelu": (lambda x: tf.nn.gelu(x), ["x"]),
    "gelu_tanh": (lambda x: tf.nn.gelu(x, approximate=True), ["x"]),
    "silu": (lambda x: tf.nn.silu(x), ["x"]),
    "swish_beta": (lambda x: tf.nn.swish(x, beta=1.5), ["x"]),
    "relu6": (lambda x: tf.nn.relu6(x * 4), ["x"]),
    "bias_add": (lambda x, a: tf.nn.bias_add(x, a[0]), ["x", "a"]),
    "split_sizes": (lambda x: tf.split(x, [1, 3], axis=1)[1], ["x"]),
    "split_even": (lambda x: tf.split(x, 2, axis=1)[0], ["x"]),
    "reverse": (lambda x: tf.reverse(x, [1]), ["x"]),
    "reduce_euclidean_norm": (lambda x: tf.math.reduce_euclidean_norm(x, axis=0), ["x"]),
    "log_sigmoid": (lambda x: tf.math.log_sigmoid(x), ["x"]),
    "gather_batch_dims": (lambda x: tf.gather(x, [[0, 2, 2], [1, 1, 0], [3, 0, 1]], batch_dims=1), ["x"]),
    "gather_batch_dims_axis2": (
        lambda x: tf.gather(tf.reshape(x, [3, 2, 2]), [[1], [0], [1]], axis=2, batch_dims=1),
        ["x"],
    ),
}

VALUES = {
    "argmax": lambda: tf.argmax(tf.constant(I["x"])),
    "argmax_axis1": lambda: tf.argmax(tf.constant(I["x"]), axis=1),
    "argmin_axis1": lambda: tf.math.argmin(tf.constant(I["x"]), axis=1),
    "top_k_indices": lambda: tf.math.top_k(tf.constant(I["x"]), k=3).indices,
    "one_hot": lambda: tf.one_hot(labels, 4),
    "one_hot_on_off_axis0": lambda: tf.one_hot([0, 2, -1], 3, on_value=5.0, off_value=-1.0, axis=0),
    "where_indices": lambda: tf.where(tf.constant(mask)),
    "equal": lambda: tf.equal(tf.constant(I["x"]) > 0, tf.constant(mask)),
    "greater": lambda: tf.math.greater(tf.constant(I["x"]), 0.5),
    "reduce_any": lambda: tf.reduce_any(tf.constant(mask), axis=1),
    "reduce_all": lambda: tf.reduce_all(tf.constant(mask), axis=0),
    "sort_descending": lambda: tf.sort(tf.constant(I["x"]), direction="DESCENDING"),
    "argsort": lambda: tf.argsort(tf.constant(I["x"]), axis=0),
    "shape": lambda: tf.shape(tf.constant(I["x"])),
    "size": lambda: tf.size(tf.constant(I["x"])),
    "rank": lambda: tf.rank(tf.constant(I["x"])),
    "fill": lambda: tf.fill([2, 3], 7),
    "zeros_like": lambda: tf.zeros_like(tf.constant(I["x"])),
    "ones_like": lambda: tf.ones_like(tf.constant(I["x"])),
    "linspace": lambda: tf.linspace(-1.0, 2.0, 7),
    "eye": lambda: tf.linalg.eye(2, 3),
    "round": lambda: tf.round([0.5, 1.5, 2.5, -0.5, -1.5, 1.4, -2.6]),
    "ceil": lambda: tf.math.ceil(tf.constant(I["x"])),
    "count_nonzero": lambda: tf.math.count_nonzero(tf.constant(mask), axis=1),
    "confusion_matrix": lambda: tf.math.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1]),
    "confusion_matrix_weighted": lambda: tf.math.confusion_matrix(
        [0, 1], [1, 1], num_classes=2, weights=[0.5, 2.0], dtype=tf.float32
    ),
}

# The test runs the items in two parts (each a test of its own, within the default time limit on
# SwiftShader): part 0 the first half of DIFFERENTIABLE, part 1 the rest and everything else.
PART = I["part"]
names = list(DIFFERENTIABLE)
names = names[: len(names) // 2] if PART == 0 else names[len(names) // 2 :]

with tf.device(DEVICE):
    grads = {name: value_and_grads(DIFFERENTIABLE[name][0], *[I[n] for n in DIFFERENTIABLE[name][1]]) for name in names}
    values = {}
    dtypes = {}
    for name, fn in VALUES.items() if PART == 1 else ():
        out = fn()
        values[name] = flat(out)
        dtypes[name] = f"{out.dtype!r} {list(out.shape)}"
    top = tf.math.top_k(tf.constant([1.0, 3.0, 2.0]), k=2)
    moments = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
    kinds = {
        "top_k": f"{type(top).__name__} {top._fields} {top[0] is top.values}",
        "top_k_repr": repr(top),
        "moments": f"{type(moments).__name__} {len(moments)}",
        "unstack": f"{type(tf.unstack(tf.constant(I['x']))).__name__} {len(tf.unstack(tf.constant(I['x'])))}",
    }
RESULT = {"grads": grads, "values": values, "dtypes": dtypes, "kinds": kinds if PART == 1 else {}}
