"""TensorFlow's tensor functions where Python's form differs from the TS layer's (``src/api/tf/ops.ts``,
``nn.ts``, ``random.ts``, which compute everything): tuples (``tf.nn.moments``, ``tf.math.top_k``'s
``TopKV2``), tf.bool results (comparisons, ``reduce_any``/``reduce_all``), the value-dependent
``boolean_mask`` and one-argument ``where`` (the TS names are async: waited for here), dtypes
inferred from Python numbers (``fill``), and tuple ``axis`` arguments. The rest of ``tf.*``,
``tf.math.*``, ``tf.nn.*`` and ``tf.linalg.*`` is found in the TS objects by name."""

import builtins
import collections

from . import _tensor
from ._errors import TENSORFLOW as _TENSORFLOW
from ._errors import call as _call

_tf = _tensor.tf_js

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def _convert(value, dtype=None):
    import tensorflow as tf

    return tf.convert_to_tensor(value, dtype=dtype)


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _as_bool(t):
    t._bool = True
    return t


def reduction(js_name, is_bool=False):
    """``tf.reduce_*(input_tensor, axis=None, keepdims=False)`` over the TS function of that name."""

    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        out = _call(getattr(_tf, js_name), _convert(input_tensor), _axis(axis), keepdims)
        return _as_bool(out) if is_bool else out

    reduce.__name__ = js_name
    return reduce


def comparison(js_name):
    def compare(x, y, name=None):
        x = _convert(x)
        return _as_bool(_call(getattr(_tf, js_name), x, _convert(y, x.dtype)))

    compare.__name__ = js_name
    return compare


def argmin(input, axis=None, output_type=None, name=None):  # noqa: A002  TensorFlow's parameter name
    return _call(_tf.argmin, _convert(input), 0 if axis is None else axis)


def top_k(input, k=1, sorted=True, index_type=None, name=None):  # noqa: A002  TensorFlow's parameter names
    """``TopKV2(values, indices)``: the k largest entries along the last axis, largest first."""
    values, indices = _call(_tf.math.topK, _convert(input), k, sorted)
    return TopKV2(values, indices)


def moments(x, axes, shift=None, keepdims=False, name=None):
    """``(mean, variance)`` over ``axes``; the variance is the biased (population) one."""
    mean, variance = _call(_tf.nn.moments, _convert(x), _axis(axes), None, keepdims)
    return mean, variance


def _wait_call(fn, *args):
    """A TS function returning a Promise (it reads values back): called and waited for."""
    from pyodide.ffi import JsException

    from torch import _bridge as b

    try:
        promise = fn(*[b.to_js_value(a) for a in args])
    except JsException as error:
        raise _TENSORFLOW.translate(error) from None
    return _tensor._relabel(b.from_js(_TENSORFLOW.wait(promise)))


def boolean_mask(tensor, mask, axis=None, name=None):
    """The entries of ``tensor`` where ``mask`` is true (``mask`` covers the dimensions from ``axis``).
    Reads the mask's values (the result's size depends on them)."""
    return _wait_call(_tf.booleanMask, _convert(tensor), _convert(mask), axis)


def where(condition, x=None, y=None, name=None):
    """``tf.where(c, x, y)``: x where c, else y (broadcast); ``tf.where(c)``: the [n, rank] indices
    of c's true entries (int32 here, int64 in TensorFlow), which reads c's values."""
    condition = _convert(condition)
    if x is None and y is None:
        return _wait_call(_tf.whereAsync, condition)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    x, y = _convert(x), _convert(y)
    out = _call(_tf.where, condition, x, y)
    if getattr(x, "_bool", False) and getattr(y, "_bool", False):
        _as_bool(out)
    return out


def fill(dims, value, name=None):
    """A tensor of ``dims`` filled with ``value``: int32 for a Python int, float32 for a float."""
    import tensorflow as tf

    if isinstance(dims, int):
        dims = [dims]
    elif hasattr(dims, "tolist"):
        dims = dims.tolist()
    return tf.constant(value, shape=[int(d) for d in dims])


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """TensorFlow's dtype: ``dtype``, else the on/off values' (int32 for Python ints), else float32."""
    from ._tensor import as_dtype

    d = as_dtype(dtype)
    given = [v for v in (on_value, off_value) if v is not None]
    if d is None and given and builtins.all(isinstance(v, int) and not isinstance(v, bool) for v in given):
        d = as_dtype("int32")
    return _call(
        _tf.oneHot,
        _convert(indices, "int32"),
        depth,
        1 if on_value is None else on_value,
        0 if off_value is None else off_value,
        -1 if axis is None else axis,
        None if d is None else d.engine,
    )


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=None, name=None):
    """``tf.math.confusion_matrix``: without ``num_classes``, the largest label or prediction + 1
    (which reads the values, as TensorFlow's eager call does)."""
    from ._tensor import as_dtype

    labels, predictions = _convert(labels, "int32"), _convert(predictions, "int32")
    if num_classes is None:
        top = (_call(_tf.reduceMax, t, None, False).numpy() for t in (labels, predictions))
        num_classes = int(builtins.max(top)) + 1
    d = as_dtype(dtype)
    return _call(
        _tf.math.confusionMatrix,
        labels,
        predictions,
        num_classes,
        None if weights is None else _convert(weights),
        None if d is None else d.engine,
    )


def unstack(value, num=None, axis=0, name=None):
    return list(_call(_tf.unstack, _convert(value), num, axis))


def einsum(equation, *inputs, **kwargs):
    return _call(_tf.einsum, equation, *[_convert(t) for t in inputs])
