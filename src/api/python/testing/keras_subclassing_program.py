"""The program keras-subclassing.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): a Keras layer and a Keras model subclassed in Python, as TensorFlow's "advanced
quickstart" and Keras's "making new layers and models via subclassing" guide write them. From the
weights in INPUT (set_weights): the outputs with and without ``training``, GradientTape's
gradients for the input and every trainable variable, the weights after one ``fit`` epoch of SGD
on MSE, the summary, and the errors Keras gives. keras_subclassing_reference.py computes the
numbers in float64 NumPy. A test fixture."""

import contextlib
import io
import traceback

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


class Linear(tf.keras.layers.Layer):
    def __init__(self, units=32):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.seen_shape = input_shape
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.linear = Linear(5)
        self.d2 = tf.keras.layers.Dense(3)

    def call(self, x, training=False):
        h = tf.tanh(self.linear(x))
        if training:
            h = h * 0.5
        return self.d2(h)


class VariableLinear(tf.keras.layers.Layer):
    """TensorFlow's Keras guide's first form: weights as tf.Variable attributes."""

    def __init__(self, units=32, input_dim=32):
        super().__init__()
        w_init = tf.random_normal_initializer()
        self.w = tf.Variable(initial_value=w_init(shape=(input_dim, units), dtype="float32"), trainable=True)
        b_init = tf.zeros_initializer()
        self.b = tf.Variable(initial_value=b_init(shape=(units,), dtype="float32"), trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class ComputeSum(tf.keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = tf.Variable(initial_value=tf.zeros((input_dim,)), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


class Recorder(tf.keras.layers.Layer):
    """Records the ``training`` each call gets (called without it inside a model's call)."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def call(self, inputs, training=None):
        self.seen.append(training)
        return inputs


class Outer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.recorder = Recorder()
        self.dense = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.dense(self.recorder(x))


class Keras3Style(tf.keras.layers.Layer):
    """add_weight's arguments in Keras 3's positional order (shape first)."""

    def build(self, input_shape):
        self.k = self.add_weight((input_shape[-1], 2), "ones", trainable=False)

    def call(self, inputs):
        return tf.matmul(inputs, self.k)


class ReadsBack(tf.keras.layers.Layer):
    """Reads its input back inside call, as eager TensorFlow allows when called directly."""

    def call(self, inputs):
        self.first = float(tf.reshape(inputs, [-1])[0].numpy())
        return inputs


class Broken(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(2)

    def call(self, x):
        raise ValueError("bad input in call")


class NoSuper(tf.keras.Model):
    def __init__(self):
        self.d = tf.keras.layers.Dense(2)


def error_of(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001  the test compares the type and text
        return [type(error).__name__, str(error), traceback.format_exc()]
    return None


with tf.device(DEVICE):
    tf.keras.backend.clear_session()
    x = tf.constant(INPUT["x"])
    model = MyModel()
    errors = {"summary_unbuilt": error_of(model.summary), "count_unbuilt": error_of(Linear(2).count_params)}
    model(x)
    model.set_weights([INPUT["w"], INPUT["b"], INPUT["kernel"], INPUT["bias"]])
    upstream = tf.constant(INPUT["upstream"])
    grads = {}
    outputs = {}
    for training in (False, True):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = model(x, training=training)
            loss = tf.reduce_sum(y * upstream)
        g = tape.gradient(loss, [x] + model.trainable_variables)
        outputs[str(training)] = flat(y)
        grads[str(training)] = [flat(t) for t in g]

    summary_lines = []
    model.summary(print_fn=summary_lines.append)
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.fit(x, tf.constant(INPUT["target"]), batch_size=len(INPUT["x"]), epochs=1, shuffle=False, verbose=0)
    after_fit = [flat(w) for w in model.trainable_variables]

    broken = Broken()
    broken.compile(optimizer="sgd", loss="mse")
    errors["call_raises"] = error_of(lambda: broken.fit(x, tf.constant(INPUT["target"]), epochs=1, verbose=0))
    errors["no_super"] = error_of(NoSuper)

    class CustomStep(MyModel):
        def train_step(self, data):
            return {}

    custom = CustomStep()
    custom.compile(optimizer="sgd", loss="mse")
    errors["train_step"] = error_of(lambda: custom.fit(x, tf.constant(INPUT["target"]), epochs=1, verbose=0))

    # A Python layer inside Sequential: its output shape comes from calling it (Keras traces it).
    stacked = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(5,)), Linear(4)])
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        stacked.summary()
    stacked_lines = printed.getvalue().split("\n")

    # Weights held as tf.Variable attributes, trainable or not; a Python layer in a functional model.
    variable_linear = VariableLinear(4, 2)
    variable_linear.set_weights([[[1, 2, 3, 4], [5, 6, 7, 8]], [0.5, 0.5, 0.5, 0.5]])
    summed = ComputeSum(2)
    summed(tf.ones((2, 2)))
    inputs = tf.keras.Input(shape=(4,))
    functional = tf.keras.Model(inputs, Linear(2)(inputs))
    outer = Outer()
    outer.compile(optimizer="sgd", loss="mse")
    outer.fit(x, tf.constant(INPUT["target"]), batch_size=len(INPUT["x"]), epochs=1, verbose=0)
    outer(x)
    outer.predict(x, verbose=0)
    keras3 = Keras3Style()
    reads_back = ReadsBack()
    reads_back(x)
    tracked = {
        "reads_back": [reads_back.first == flat(x)[0]],
        "keras3_add_weight": [flat(keras3(tf.ones((1, 3)))), len(keras3.non_trainable_weights)],
        "training_seen": outer.recorder.seen,
        "variable_linear": [len(variable_linear.trainable_weights), flat(variable_linear(tf.ones((1, 2))))],
        "compute_sum": [flat(summed(tf.ones((2, 2)))), len(summed.weights), len(summed.non_trainable_weights)],
        "functional": [isinstance(functional, tf.keras.Model), list(functional(x).shape)],
    }

RESULT = {
    "outputs": outputs,
    "grads": grads,
    "after_fit": after_fit,
    "summary": "\n".join(summary_lines),
    "seen_shape": repr(model.linear.seen_shape),
    "layers_are_ours": [model.layers[0] is model.linear, type(model.layers[1]).__name__],
    "names": [model.name, model.linear.name, model.d2.name],
    "count": model.count_params(),
    "isinstance": [
        isinstance(model, tf.keras.Model),
        isinstance(model.linear, tf.keras.layers.Layer),
        isinstance(model.d2, tf.keras.layers.Layer),
        isinstance(model.linear, tf.keras.Model),
    ],
    "errors": errors,
    "tracked": tracked,
    "stacked_row": next(line for line in stacked_lines if "(Linear)" in line),
}
