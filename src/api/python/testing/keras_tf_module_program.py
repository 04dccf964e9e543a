"""The second program of keras-tf-ops.test.ts, under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): tf.Module's tracking (names, scopes, variables in TensorFlow's order, submodules,
deduplication, Keras layers), a hand-written training loop over a tf.Module with a
``@tf.function(input_signature=...)`` ``__call__`` (3 SGD steps, matched by
keras_tf_module_reference.py in float64 NumPy), tf.function's signature errors and TensorSpec's
repr, and tf.random's and tf.nn.dropout's statistics. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    return [float(v) for v in tf.reshape(tf.cast(t, tf.float32), [-1]).numpy()]


def error_of(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001  the test compares the type and message
        return f"{type(error).__name__}: {error}"
    return "no error"


class Dense(tf.Module):
    """The TensorFlow guide's module: variables made in __init__, used in __call__."""

    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


class Bag(tf.Module):
    """Variables in attributes, a list, a dict, twice (once tracked), frozen, and a Keras layer."""

    def __init__(self):
        super().__init__()
        shared = tf.Variable(1.0, name="shared")
        self.z = shared
        self.items = [tf.Variable(2.0, name="l0"), {"b": tf.Variable(3.0, name="db"), "a": tf.Variable(4.0, name="da")}]
        self.frozen = tf.Variable(5.0, trainable=False, name="frozen")
        self.alias = shared
        self.dense = tf.keras.layers.Dense(2)
        self.dense.build((None, 3))


class Scale(tf.keras.layers.Layer):
    """A Keras layer subclassed in Python, inside a tf.Module."""

    def build(self, input_shape):
        self.s = self.add_weight(name="s", shape=(input_shape[-1],), initializer="ones")

    def call(self, x):
        return x * self.s


class Holder(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = Scale()
        self.scale(tf.ones([1, 3]))
        self.layers = [tf.keras.layers.Dense(1)]
        self.layers[0].build((None, 3))


class Scoped(tf.Module):
    @tf.Module.with_name_scope
    def make(self):
        return tf.Variable(0.0, name="inner")


class Linear(tf.Module):
    """The training loop's model: y = x @ w + b, its call checked against a signature."""

    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(INPUT["w"], name="w")
        self.b = tf.Variable(INPUT["b"], name="b")

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32)])
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32)])
def double(x):
    return x * 2


with tf.device(DEVICE):
    model = SequentialModule(name="the_model")
    bag = Bag()
    with tf.name_scope("outer"):
        with tf.name_scope("inner"):
            nested = tf.Variable(1.0, name="v")
    tracking = {
        "name": model.name,
        "scope": model.name_scope.name,
        "default_name": Dense(1, 1).name,
        "submodules": [type(m).__name__ for m in model.submodules],
        "variables": [v.name for v in model.variables],
        "order": [
            v is u
            for v, u in zip(model.variables, [model.dense_1.b, model.dense_1.w, model.dense_2.b, model.dense_2.w])
        ],
        "types": f"{type(model.variables).__name__} {type(model.trainable_variables).__name__}",
        "bag": [v.name for v in bag.variables[:5]],
        "bag_counts": [len(bag.variables), len(bag.trainable_variables), len(bag.non_trainable_variables)],
        "bag_submodules": len(bag.submodules),
        "holder": [len(Holder().trainable_variables), len(Holder().submodules)],
        "nested": nested.name,
        "with_name_scope": Scoped(name="blk").make().name,
        "repr": repr(tf.Variable([1.0, 2.0], name="v")).split(" shape")[0],
        "bad_name": error_of(lambda: tf.Module(name="has space")),
        "output": flat(model(tf.constant([[1.0, 2.0, 0.5]]))),
    }

    linear = Linear(name="linear")
    x = tf.constant(INPUT["x"])
    y = tf.constant(INPUT["y"])
    losses = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(linear(x) - y))
        grads = tape.gradient(loss, linear.trainable_variables)
        for g, v in zip(grads, linear.trainable_variables):
            v.assign_sub(0.1 * g)
        losses.append(float(loss.numpy()))
    training = {
        "losses": losses,
        "w": flat(linear.w),
        "b": flat(linear.b),
        "trainable": [v.name for v in linear.trainable_variables],
    }

    signature = {
        "spec": repr(tf.TensorSpec(shape=(None, 3), dtype=tf.float32)),
        "spec_named": repr(tf.TensorSpec([3], tf.int32, name="x")),
        "spec_scalar": repr(tf.TensorSpec([])),
        "list_ok": flat(double([[1.0, 2.0, 3.0]])),
        "shape": error_of(lambda: double(tf.zeros([2, 4]))),
        "rank": error_of(lambda: double(tf.zeros([3]))),
        "dtype": error_of(lambda: double(tf.constant([[1, 2, 3]]))),
        "extra": error_of(lambda: double(tf.zeros([1, 3]), tf.zeros([1, 3]))),
        "method_shape": error_of(lambda: linear(tf.zeros([2, 2]))),
        "plain": flat(tf.function(lambda a, b: a + b)(tf.constant(1.0), 2.0)),
    }

    tf.random.set_seed(7)
    t = tf.random.truncated_normal([4000], mean=1.0, stddev=2.0)
    n = tf.random.normal([4000], mean=-1.0, stddev=0.5)
    u = tf.random.uniform([3000], minval=2, maxval=5, dtype=tf.int32)
    f = tf.random.uniform([3000], minval=-1.0, maxval=3.0)
    perm = tf.random.shuffle(tf.range(10))
    draws = tf.random.categorical(tf.math.log([[0.1, 0.6, 0.3]]), 3000)
    dropped = tf.nn.dropout(tf.ones([4000]), rate=0.25)
    kept_rows = tf.nn.dropout(tf.ones([200, 4]), rate=0.5, noise_shape=[200, 1])
    counts = [float(tf.reduce_sum(tf.cast(tf.equal(draws, k), tf.float32)).numpy()) for k in range(3)]
    random = {
        "truncated": [
            float(tf.reduce_mean(t).numpy()),
            float(tf.math.reduce_std(t).numpy()),
            float(tf.reduce_max(tf.abs(t - 1.0)).numpy()),
        ],
        "normal": [float(tf.reduce_mean(n).numpy()), float(tf.math.reduce_std(n).numpy())],
        "uniform_int": [float(tf.reduce_min(u).numpy()), float(tf.reduce_max(u).numpy()), repr(u.dtype)],
        "uniform_int_counts": [float(tf.reduce_sum(tf.cast(tf.equal(u, k), tf.float32)).numpy()) for k in (2, 3, 4)],
        "uniform": [float(tf.reduce_min(f).numpy()), float(tf.reduce_max(f).numpy()), float(tf.reduce_mean(f).numpy())],
        "uniform_int_no_maxval": error_of(lambda: tf.random.uniform([2], dtype=tf.int32)),
        "shuffle": sorted(int(v) for v in flat(perm)),
        "categorical": [list(draws.shape), counts],
        "dropout_values": sorted(set(flat(dropped))),
        "dropout_kept": float(tf.reduce_mean(tf.cast(dropped > 0, tf.float32)).numpy()),
        "dropout_rows": [
            float(tf.reduce_max(tf.math.reduce_std(kept_rows, axis=1)).numpy()),
            sorted(set(flat(kept_rows))),
        ],
        "dropout_bad_rate": error_of(lambda: tf.nn.dropout(tf.ones([2]), rate=1.0)),
    }
RESULT = {"tracking": tracking, "training": training, "signature": signature, "random": random}
