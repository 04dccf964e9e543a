"""TensorFlow's Python names over gpubook's engine and its tf-shaped TypeScript layer
(``src/api/tf.ts``, ``src/api/tf/``): the same objects TypeScript cells' ``tf`` uses, with
TensorFlow's snake_case names and keyword arguments. Everything runs eagerly; nothing is
computed here that the engine computes.

Differences from TensorFlow: the engine has float32 and int32 only (float64 is stored as float32,
int64 as int32); ``Tensor.numpy()`` returns plain Python values (a number or nested lists) until
NumPy is imported (then ndarrays, torch/_numpy.py); strings (``tf.strings``) are host-side Python
strings.
"""

import builtins as _builtins
import sys as _sys
import time as _time
import weakref as _weakref

from torch import _bridge as _b
from torch import _numpy, _numpy_engine
from torch._grad_mode import no_grad as _no_grad

from . import _tensor
from ._errors import TENSORFLOW as _TENSORFLOW
from ._errors import call as _call
from ._tensor import (  # noqa: F401  re-exported: tf.float32, tf.Tensor, …
    DType,
    Tensor,
    TensorShape,
    as_dtype,
    bool,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int32,
    int64,
    string,
    uint8,
)

_range = _builtins.range

__version__ = "2.15.0"
__all__ = []

_tf = _tensor.tf_js
_relabel = _tensor._relabel


def _convert(value, dtype=None):
    if isinstance(value, Tensor):
        return value if dtype is None else cast(value, dtype)
    return constant(value, dtype=dtype)


# ---------------------------------------------------------------------- devices
from . import config  # noqa: E402, F401  tf.config, re-exported in its section


class device:
    """``with tf.device("/gpu:0"):`` — tensors made inside go to that device (soft placement: a
    GPU name without a GPU means the CPU, as TensorFlow does)."""

    def __init__(self, device_name):
        from ._js_object import JsScope

        # The engine's tf.device(name, fn) keeps `name` as the default until fn's promise
        # settles; leaving the block settles it.
        self._scope = JsScope(lambda fn: _tf.device(device_name, fn))

    def __enter__(self):
        self._scope.__enter__()
        return self

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)


# ---------------------------------------------------------------------- tensors
def _inferred(value):
    """TensorFlow's dtype for Python data: int32 for ints, bool for bools, else float32."""
    kinds = _b.element_kinds(value)
    if kinds == {"bool"}:
        return bool
    if kinds and kinds <= {"int"}:
        return int32
    return None


def constant(value, dtype=None, shape=None, name=None):
    d = as_dtype(dtype)
    array = _numpy.as_array(value)
    if array is not None:  # an ndarray or a NumPy scalar: its dtype, as TensorFlow keeps it
        return _from_array(array, d, shape)
    if d is None and not isinstance(value, Tensor):
        d = _inferred(value)
    if isinstance(value, Tensor):
        value = value._js
    elif d is bool:
        value = _tensor._map_nested(value, int)
    out = _call(_tf.constant, value, None if d is None else d.engine, None if shape is None else list(shape))
    if d is bool:
        out._bool = True
    return out


def _from_array(array, d, shape):
    _numpy.check_convertible(array, byte_order=False)  # TensorFlow converts the byte order
    if d is not None:
        array = array.astype(d.name)
    if shape is not None:
        array = array.reshape(shape)
    out = Tensor._wrap(_numpy.to_engine(_numpy_engine, array, "tf"), True, array.dtype.name == "bool")
    out._np = _numpy.Shared(array.dtype.name)
    return out


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    return _convert(value, dtype)


def cast(x, dtype, name=None):
    d = as_dtype(dtype)
    if d is bool:
        return _convert(x) != 0
    return _call(_tf.cast, x if isinstance(x, Tensor) else _convert(x), d.engine)


def is_tensor(x):
    return isinstance(x, Tensor)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001  TensorFlow's name shadows the builtin
    """``tf.range(n)``, ``tf.range(start, limit, delta)``: int32 for int arguments, as TF."""
    if limit is None:
        start, limit = 0, start
    # Python numbers (.numpy() is a NumPy scalar once NumPy is imported, not an int).
    start, limit, delta = (
        v.item() if isinstance(v, Tensor) or _numpy.is_numpy(v) else v for v in (start, limit, delta)
    )
    if all(isinstance(v, int) for v in (start, limit, delta)):
        values = list(_range(start, limit, delta))
    else:
        n = max(0, -int(-(limit - start) // delta))
        values = [float(start + i * delta) for i in _range(n)]
    if not values:
        raise ValueError("tf.range: the range is empty; the engine has no empty tensors")
    return constant(values, dtype=dtype)


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    return _call(_tf.matmul, _convert(a), _convert(b), transpose_a, transpose_b)


# Tensor functions whose Python form differs from the TS layer's (_ops.py); the others are found
# by name (__getattr__ below, tf.math / tf.nn / tf.linalg's _Namespace).
from . import _ops  # noqa: E402
from ._ops import argmin, boolean_mask, einsum, fill, one_hot, unstack, where  # noqa: E402, F401

reduce_sum = _ops.reduction("reduceSum")
reduce_mean = _ops.reduction("reduceMean")
reduce_max = _ops.reduction("reduceMax")
reduce_min = _ops.reduction("reduceMin")
reduce_prod = _ops.reduction("reduceProd")
reduce_std = _ops.reduction("reduceStd")
reduce_variance = _ops.reduction("reduceVariance")
reduce_logsumexp = _ops.reduction("reduceLogsumexp")
reduce_any = _ops.reduction("reduceAny", is_bool=True)
reduce_all = _ops.reduction("reduceAll", is_bool=True)
equal = _ops.comparison("equal")
not_equal = _ops.comparison("notEqual")
less = _ops.comparison("less")
less_equal = _ops.comparison("lessEqual")
greater = _ops.comparison("greater")
greater_equal = _ops.comparison("greaterEqual")


def argmax(input, axis=None, output_type=int64, name=None):  # noqa: A002  TensorFlow's parameter name shadows the builtin
    return _call(_tf.argmax, _convert(input), 0 if axis is None else axis)


def reshape(tensor, shape, name=None):
    return _call(_tf.reshape, _convert(tensor), list(shape))


def zeros(shape, dtype=float32, name=None):
    return _call(_tf.zeros, list(shape) if not isinstance(shape, int) else [shape], as_dtype(dtype).engine)


def ones(shape, dtype=float32, name=None):
    return _call(_tf.ones, list(shape) if not isinstance(shape, int) else [shape], as_dtype(dtype).engine)


def add(x, y, name=None):
    return _convert(x) + y


def subtract(x, y, name=None):
    return _convert(x) - y


def multiply(x, y, name=None):
    return _convert(x) * y


def divide(x, y, name=None):
    return _convert(x) / y


class _Namespace:
    """A TS tf namespace (``tf.math``, ``tf.nn``) by TensorFlow's snake_case names (the element-wise
    table's ops and others the TS layer has), with the Python functions given here on top."""

    def __init__(self, js_namespace, path, **names):
        self._js = js_namespace
        self._path = path
        self.__dict__.update(names)

    def __getattr__(self, name):
        fn = _TENSORFLOW.function(self._js, name)
        if fn is None:
            raise AttributeError(f"module '{self._path}' has no attribute '{name}'")
        return fn


math = _Namespace(
    _tf.math,
    "tensorflow.math",
    add=add,
    subtract=subtract,
    multiply=multiply,
    divide=divide,
    reduce_sum=reduce_sum,
    reduce_mean=reduce_mean,
    reduce_max=reduce_max,
    reduce_min=reduce_min,
    argmax=argmax,
    # tf and tf.nn tensor functions (_ops.py)
    reduce_prod=reduce_prod,
    reduce_std=reduce_std,
    reduce_variance=reduce_variance,
    reduce_logsumexp=reduce_logsumexp,
    reduce_any=reduce_any,
    reduce_all=reduce_all,
    argmin=argmin,
    top_k=_ops.top_k,
    confusion_matrix=_ops.confusion_matrix,
    equal=equal,
    not_equal=not_equal,
    less=less,
    less_equal=less_equal,
    greater=greater,
    greater_equal=greater_equal,
)
nn = _Namespace(_tf.nn, "tensorflow.nn", moments=_ops.moments)
linalg = _Namespace(_tf.linalg, "tensorflow.linalg", einsum=einsum)


# tf.Module, tf.name_scope (_module.py); variables take their names from the enclosing scope.
from . import _module  # noqa: E402
from ._module import Module, name_scope  # noqa: E402, F401

_variable_names = {}  # id(variable) -> its TensorFlow name (the handle's slots have no room)


class Variable(Tensor):
    """``tf.Variable(initial_value)``: a tensor the tape follows (``trainable``), updated in place
    by ``assign``, ``assign_add`` and ``assign_sub``."""

    __slots__ = ()

    def __new__(cls, initial_value, trainable=True, name=None, dtype=None):
        t = constant(initial_value, dtype=dtype)
        t.__class__ = cls
        if trainable:
            t._js.requiresGrad = True
        # TensorFlow's name: the enclosing name scope's prefix, the name (default "Variable"), ":0".
        _variable_names[id(t)] = _module.current_scope() + (name or "Variable") + ":0"
        _weakref.finalize(t, _variable_names.pop, id(t), None)
        return t

    def __init__(self, *args, **kwargs):
        pass

    @property
    def trainable(self):
        return _builtins.bool(self._js.requiresGrad)

    @property
    def name(self):
        return _variable_names.get(id(self), "Variable:0")

    def _update(self, name, value):
        with _no_grad():
            self._op(name, value)
        return self

    def assign(self, value):
        return self._update("copy_", _convert(value))

    def assign_add(self, delta):
        return self._update("add_", delta)

    def assign_sub(self, delta):
        return self._update("sub_", delta)

    def __repr__(self):
        text = Tensor.__repr__(self)
        return f"<tf.Variable '{self.name}' " + text[len("<tf.Tensor: ") :].replace(", dtype=", " dtype=", 1)


class _Random:
    """``tf.random``: the TS layer's functions (src/api/tf/random.ts) under TensorFlow's names."""

    def set_seed(self, seed):
        _call(_tf.random.setSeed, seed)

    def uniform(self, shape, minval=0, maxval=None, dtype=float32, seed=None, name=None):
        return _call(_tf.random.uniform, list(shape), minval, maxval, as_dtype(dtype).engine)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
        return _call(_tf.random.normal, list(shape), mean, stddev, as_dtype(dtype).engine)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
        return _call(_tf.random.truncatedNormal, list(shape), mean, stddev, as_dtype(dtype).engine)

    def shuffle(self, value, seed=None, name=None):
        return _call(_tf.random.shuffle, _convert(value))

    def categorical(self, logits, num_samples, dtype=None, seed=None, name=None):
        return _call(_tf.random.categorical, _convert(logits), num_samples)


random = _Random()

# TensorFlow 2's initializer classes (area H: weights a subclassed Keras layer makes itself).
from ._initializers import (  # noqa: E402, F401
    constant_initializer,
    ones_initializer,
    random_normal_initializer,
    random_uniform_initializer,
    zeros_initializer,
)


# ---------------------------------------------------------------------- host-side helpers
def print(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001  TensorFlow's name shadows the builtin
    """Prints as TensorFlow's tf.print: tensors as ``[[1 2] [3 4]]`` with the first and last
    ``summarize`` entries of long dimensions (``None``: all). TensorFlow writes to the process's
    stderr, which notebooks show as ordinary output; here it goes to the cell's stdout unless
    ``output_stream`` (``sys.stderr``, any object with ``write``) says otherwise."""
    stream = _sys.stdout if output_stream is None else output_stream
    parts = []
    for value in inputs:
        if isinstance(value, Tensor):
            parts.append(_tensor._print_text(value.tolist(), value.dtype.is_floating, summarize))
        else:
            parts.append(str(value))
    text = sep.join(parts) + end
    if hasattr(stream, "write"):
        stream.write(text)
    else:
        _builtins.print(text, end="")


def timestamp(name=None):
    """Seconds as a float32 scalar. TensorFlow returns float64 seconds since the epoch; float32
    cannot hold those to the second, so this keeps the time of day (UTC seconds since midnight,
    about 8 ms precision): ``tf.timestamp() % (24*60*60)`` and differences work as in TF."""
    return constant(_time.time() % 86400.0, dtype=float32)


# The submodules, re-exported, imported after the functions above, as before.
from . import keras, strings  # noqa: E402, F401
from ._function import TensorSpec, function  # noqa: E402, F401  eager, input_signature checked
from ._js_object import JsObject as _JsObject  # noqa: E402  with the submodules
from ._tape import GradientTape  # noqa: E402, F401  tf.GradientTape, re-exported

data = _JsObject(_tf.data)
from . import distribute, test  # noqa: E402, F401  tf.distribute after tf.data, as before; tf.test


def __getattr__(name):
    """TensorFlow's top-level functions the TS layer has and this module does not write out
    (``tf.exp``, ``tf.sigmoid``: the element-wise table's rows)."""
    fn = _TENSORFLOW.function(_tf, name)
    if fn is None:
        raise AttributeError(f"module 'tensorflow' has no attribute '{name}'")
    globals()[name] = fn  # later reads are plain module attributes (as torch's, torch/__init__.py)
    return fn
