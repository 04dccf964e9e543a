"""keras.ops: Keras 3's op names and signatures over ``tf``'s functions (the TensorFlow backend's
mapping), looked up when called, so every value and gradient comes from the TS layer and the
engine. ``axis=None`` means all axes, as in Keras; ``convert_to_numpy`` gives an ndarray when
NumPy is loaded (else ``Tensor.numpy()``'s lists)."""

from torch import _numpy


def _tf():
    import tensorflow

    return tensorflow


def _t(x, dtype=None):
    return _tf().convert_to_tensor(x, dtype=dtype)


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


# ---------------------------------------------------------------------- conversion
def convert_to_tensor(x, dtype=None, sparse=None):
    return _t(x, dtype)


def convert_to_numpy(x):
    if not isinstance(x, _tf().Tensor):
        x = _t(x)
    out = x.numpy()
    np = _numpy.loaded()
    return np.asarray(out) if np is not None else out


def cast(x, dtype):
    return _tf().cast(x, dtype)


def shape(x):
    """The static shape as a tuple of ints, as Keras 3 gives it for eager tensors."""
    return tuple(_t(x).shape)


def stop_gradient(variable):
    """The value without a gradient path (the engine's detach, as tf.stop_gradient)."""
    tf = _tf()
    fn = getattr(tf, "stop_gradient", None) if hasattr(tf, "stop_gradient") else None
    return fn(variable) if fn is not None else _t(variable).detach()


# ---------------------------------------------------------------------- activations (keras.ops.nn)
def relu(x):
    return _tf().nn.relu(x)


def relu6(x):
    return _tf().nn.relu6(x)


def sigmoid(x):
    return _tf().sigmoid(x)


def tanh(x):
    return _tf().tanh(x)


def softplus(x):
    return _tf().math.softplus(x)


def silu(x):
    x = _t(x)
    return x * _tf().sigmoid(x)


swish = silu


def elu(x, alpha=1.0):
    if alpha != 1.0:
        x = _t(x)
        return _tf().where(x > 0, x, alpha * (_tf().exp(x) - 1))
    return _tf().nn.elu(x)


def leaky_relu(x, negative_slope=0.2):
    return _tf().nn.leaky_relu(x, alpha=negative_slope)


def gelu(x, approximate=True):
    return _tf().nn.gelu(x, approximate=approximate)


def softmax(x, axis=-1):
    return _tf().nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return _tf().nn.log_softmax(x, axis=axis)


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    return _tf().one_hot(x, num_classes, axis=axis, dtype=dtype or "float32")


def moments(x, axes, keepdims=False, synchronized=False):
    return _tf().nn.moments(x, axes=_axis(axes), keepdims=keepdims)


# ---------------------------------------------------------------------- element-wise
def _unary(tf_name):
    def op(x):
        fn = _tf()
        for part in tf_name.split("."):
            fn = getattr(fn, part)
        return fn(_t(x))

    op.__name__ = tf_name.rsplit(".", 1)[-1]
    return op


abs = _unary("abs")  # noqa: A001  Keras's name shadows the builtin
absolute = abs
sqrt = _unary("sqrt")
exp = _unary("exp")
log = _unary("log")
square = _unary("square")
negative = _unary("negative")
sign = _unary("sign")
floor = _unary("floor")
ceil = _unary("math.ceil")
reciprocal = _unary("math.reciprocal")


def log1p(x):
    # The engine has no log1p kernel: log(1 + x) (less precise than log1p for |x| below ~1e-4).
    return _tf().math.log(_t(x) + 1.0)


def expm1(x):
    # exp(x) - 1, as log1p above.
    return _tf().exp(_t(x)) - 1.0


def round(x, decimals=0):  # noqa: A001  Keras's name shadows the builtin
    if decimals != 0:
        raise NotImplementedError("keras.ops.round: only decimals=0 is supported")
    return _tf().round(_t(x))


def add(x1, x2):
    return _t(x1) + x2


def subtract(x1, x2):
    return _t(x1) - x2


def multiply(x1, x2):
    return _t(x1) * x2


def divide(x1, x2):
    return _t(x1) / x2


true_divide = divide


def power(x1, x2):
    return _tf().pow(_t(x1), x2)


def maximum(x1, x2):
    return _tf().maximum(x1, x2)


def minimum(x1, x2):
    return _tf().minimum(x1, x2)


def clip(x, x_min, x_max):
    return _tf().clip_by_value(x, x_min, x_max)


def equal(x1, x2):
    return _tf().equal(x1, x2)


def not_equal(x1, x2):
    return _tf().not_equal(x1, x2)


def greater(x1, x2):
    return _tf().greater(x1, x2)


def greater_equal(x1, x2):
    return _tf().greater_equal(x1, x2)


def less(x1, x2):
    return _tf().less(x1, x2)


def less_equal(x1, x2):
    return _tf().less_equal(x1, x2)


def where(condition, x1=None, x2=None):
    if x1 is None and x2 is None:
        return _tf().where(condition)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` either both should be `None` or both should have non-None value.")
    return _tf().where(condition, x1, x2)


# ---------------------------------------------------------------------- reductions
def _reduction(tf_name):
    def reduce(x, axis=None, keepdims=False):
        return getattr(_tf(), tf_name)(x, axis=_axis(axis), keepdims=keepdims)

    reduce.__name__ = tf_name
    return reduce


mean = _reduction("reduce_mean")
sum = _reduction("reduce_sum")  # noqa: A001  Keras's name shadows the builtin
prod = _reduction("reduce_prod")
std = _reduction("reduce_std")
var = _reduction("reduce_variance")
logsumexp = _reduction("reduce_logsumexp")
any = _reduction("reduce_any")  # noqa: A001  Keras's name shadows the builtin
all = _reduction("reduce_all")  # noqa: A001  Keras's name shadows the builtin


def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001  Keras's name shadows the builtin
    out = _tf().reduce_max(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else _tf().maximum(out, initial)


def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001  Keras's name shadows the builtin
    out = _tf().reduce_min(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else _tf().minimum(out, initial)


def _arg(tf_name, x, axis, keepdims):
    tf = _tf()
    x = _t(x)
    if axis is None:  # Keras: the index into the flattened tensor
        out = getattr(tf, tf_name)(tf.reshape(x, [-1]), axis=0)
        return tf.reshape(out, [1] * x.ndim) if keepdims else out
    out = getattr(tf, tf_name)(x, axis=axis)
    return tf.expand_dims(out, axis) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    return _arg("argmax", x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg("argmin", x, axis, keepdims)


def cumsum(x, axis=None, dtype=None):
    tf = _tf()
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.cumsum(x, axis=axis)


# ---------------------------------------------------------------------- linear algebra
def matmul(x1, x2):
    return _tf().matmul(x1, x2)


def dot(x1, x2):
    return _tf().matmul(x1, x2)


def einsum(subscripts, *operands):
    return _tf().einsum(subscripts, *operands)


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  Keras's parameter name
    return _tf().norm(x, ord="euclidean" if ord is None else ord, axis=_axis(axis), keepdims=keepdims)


# ---------------------------------------------------------------------- shapes
def reshape(x, newshape=None, new_shape=None):
    """``newshape`` (Keras 3 to 3.5) or ``new_shape`` (later)."""
    target = new_shape if newshape is None else newshape
    return _tf().reshape(x, [target] if isinstance(target, int) else list(target))


def expand_dims(x, axis):
    return _tf().expand_dims(x, axis)


def squeeze(x, axis=None):
    return _tf().squeeze(x, axis=_axis(axis))


def transpose(x, axes=None):
    return _tf().transpose(x, perm=None if axes is None else list(axes))


def concatenate(xs, axis=0):
    return _tf().concat(list(xs), axis)


def stack(x, axis=0):
    return _tf().stack(list(x), axis)


def tile(x, repeats):
    return _tf().tile(x, list(repeats) if isinstance(repeats, tuple) else repeats)


def take(x, indices, axis=None):
    tf = _tf()
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.gather(x, indices, axis=axis)


def top_k(x, k, sorted=True):  # noqa: A002  Keras's parameter name
    return _tf().math.top_k(x, k=k, sorted=sorted)


def sort(x, axis=-1):
    return _tf().sort(x, axis=axis)


def argsort(x, axis=-1):
    return _tf().argsort(x, axis=axis)


# ---------------------------------------------------------------------- creation
def zeros(shape, dtype=None):
    return _tf().zeros(shape, dtype=dtype or "float32")


def ones(shape, dtype=None):
    return _tf().ones(shape, dtype=dtype or "float32")


def zeros_like(x, dtype=None):
    return _tf().zeros_like(x)


def ones_like(x, dtype=None):
    return _tf().ones_like(x)


def full(shape, fill_value, dtype=None):
    return _tf().fill(shape, fill_value) if dtype is None else cast(_tf().fill(shape, fill_value), dtype)


def arange(start, stop=None, step=1, dtype=None):
    return _tf().range(start, stop, step, dtype=dtype)


def eye(N, M=None, k=0, dtype=None):  # noqa: N803  Keras's parameter names
    if k != 0:
        raise NotImplementedError("keras.ops.eye: only k=0 is supported")
    return _tf().eye(N, M, dtype=dtype or "float32")


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    if not endpoint or retstep:
        raise NotImplementedError("keras.ops.linspace: only endpoint=True, retstep=False are supported")
    return _tf().linspace(start, stop, num)
