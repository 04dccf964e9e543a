"""tf.Tensor: an engine tensor with TensorFlow's dtypes, shapes, printing and ``numpy()``.

It is the ``torch`` package's Tensor handle (same engine tensor, same ownership: see
``torch/_tensor.py``) with TensorFlow's face; every operator result is re-labelled as a
``tf.Tensor``, nothing is computed here.
"""

import builtins

from torch import _bridge as b
from torch import _numpy
from torch import _numpy_engine as _engine
from torch._tensor import Tensor as _TorchTensor

host = b.host
tf_js = host.globals.tf


class DType:
    """A TensorFlow dtype. ``engine`` is the engine's element type it is stored as (the bridge's
    dtype table, ``torch._bridge.DTYPES``, says which and why); bool tensors are int32 0/1 marked
    bool."""

    __slots__ = ("name", "engine", "is_floating", "is_bool")

    def __init__(self, name, engine, is_floating, is_bool=False):
        self.name = name
        self.engine = engine
        self.is_floating = is_floating
        self.is_bool = is_bool

    @property
    def is_integer(self):
        return not self.is_floating and not self.is_bool

    def __repr__(self):
        return f"tf.{self.name}"

    def _js_value(self):
        # As an argument to the TS layer (``Input(dtype=tf.int32)``), a dtype is its name.
        return self.name


_DTYPES = b.dtypes("tf", lambda row: DType(row.name, row.engine, row.is_floating, row.name == "bool"))
float32, float64, float16, int64, int32, int8, uint8, bool, string = _DTYPES.values()  # DTYPES's order
double = float64
half = float16


def as_dtype(value):
    """A dtype argument (tf.int32, 'int32', torch.int32) as a tf DType; None stays None."""
    if value is None or isinstance(value, DType):
        return value
    name = getattr(value, "name", None) or str(value)
    name = name.removeprefix("tf.").removeprefix("torch.")
    if name in _DTYPES:
        return _DTYPES[name]
    raise TypeError(f"Cannot convert {value!r} to a TensorFlow DType.")


def engine_dtype(value):
    d = as_dtype(value)
    return None if d is None else d.engine


class TensorShape(tuple):
    """``t.shape``: a tuple of ints printed as TensorFlow prints it."""

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def as_list(self):
        return list(self)

    @property
    def rank(self):
        return len(self)

    ndims = rank


def _map_nested(value, fn):
    if isinstance(value, (list, tuple)):
        return [_map_nested(v, fn) for v in value]
    return fn(value)


def _relabel(value):
    """Operator results of the torch handle, as tf Tensors (same object, same engine tensor)."""
    if isinstance(value, _TorchTensor) and type(value) is not Tensor:
        value.__class__ = Tensor
    elif isinstance(value, list):
        for v in value:
            _relabel(v)
    return value


def _scalar_text(value, is_float):
    """One element as numpy prints it in an array (``1.``, ``0.5``, ``3``)."""
    if builtins.isinstance(value, builtins.bool):
        return "True" if value else "False"
    if not is_float:
        return str(value)
    text = f"{value:.8g}"
    if "e" in text or "inf" in text or "nan" in text:
        return text
    if "." not in text:
        return text + "."
    return text


def _scalar0(value, is_float):
    """A 0-d value as NumPy prints a scalar (``3``, ``2.5``, ``1.0``, ``True``)."""
    text = _scalar_text(value, is_float)
    return text + "0" if text.endswith(".") else text


def _numpy_text(values, is_float, indent, commas=True):
    """Nested lists as NumPy prints an array's body: a common width, float decimal points
    aligned (``[1.5, 2. ]``), rows on their own lines; ``commas=False`` as ``str`` does."""
    flat = []

    def collect(v):
        if isinstance(v, list):
            for x in v:
                collect(x)
        else:
            flat.append(_scalar_text(v, is_float))

    collect(values)
    if is_float and all("." in t and "e" not in t for t in flat):
        whole = max(len(t.split(".")[0]) for t in flat)
        frac = max(len(t.split(".")[1]) for t in flat)
        flat = [t.split(".")[0].rjust(whole) + "." + t.split(".")[1].ljust(frac) for t in flat]
    width = max((len(t) for t in flat), default=0)
    it = iter(flat)
    item_sep = ", " if commas else " "
    row_sep = ",\n" if commas else "\n"

    def render(v, depth):
        if not isinstance(v, list):
            return next(it).rjust(width)
        if not v or not isinstance(v[0], list):
            return "[" + item_sep.join(render(x, depth + 1) for x in v) + "]"
        inner = [render(x, depth + 1) for x in v]
        pad = " " * (indent + depth + 1)
        blank = "\n" * (len(_depth(v)) - 2)
        return "[" + (row_sep + blank + pad).join(inner) + "]"

    return render(values, 0)


def _depth(v):
    out = []
    while isinstance(v, list):
        out.append(len(v))
        v = v[0] if v else None
    return out


def _print_text(values, is_float, summarize=3):
    """A tensor's values as tf.print shows them: ``[[1 2] [3 4]]`` style, floats with nine
    significant digits (``2.24953778e+11``), the first and last ``summarize`` entries of long
    dimensions with ``...`` between."""

    def one(v):
        if builtins.isinstance(v, builtins.bool):
            return "1" if v else "0"
        return f"{v:.9g}" if is_float else str(v)

    def render(v, depth):
        if not isinstance(v, list):
            return one(v)
        items = v
        skipped = summarize is not None and summarize >= 0 and len(v) > 2 * summarize
        if skipped:
            items = v[:summarize] + v[-summarize:]
        parts = [render(x, depth + 1) for x in items]
        if skipped:
            parts = parts[:summarize] + ["..."] + parts[summarize:]
        if v and isinstance(v[0], list):
            return "[" + ("\n" + " " * (depth + 1)).join(parts) + "]"
        return "[" + " ".join(parts) + "]"

    return render(values, 0)


class Tensor(_TorchTensor):
    """An eager tf.Tensor over one engine tensor."""

    __slots__ = ()

    # ------------------------------------------------------------------ what it is
    @property
    def shape(self):
        return TensorShape(self._js.shape)

    def get_shape(self):
        return self.shape

    @property
    def dtype(self):
        if self._np is not None and self._np.dtype in _DTYPES:  # made from a NumPy array
            return _DTYPES[self._np.dtype]
        if self._bool:
            return bool
        return float32 if self._js.dtype == "float32" else int32

    @property
    def device(self):
        name = str(self._js.device)
        kind, _, index = name.partition(":")
        return f"/job:localhost/replica:0/task:0/device:{kind.upper()}:{index or 0}"

    def numpy(self):
        """An ndarray of the values (a NumPy scalar for a 0-d tensor), a copy, once NumPy is
        imported; before that (or offline, where it cannot load) plain Python values: a number
        (or bool) for a 0-d tensor, nested lists otherwise."""
        if _numpy.loaded() is None:
            return self.tolist()
        out = _numpy.to_array(_engine, self._js, self.dtype.name)
        return out[()] if out.ndim == 0 else out

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(t)``: the values as an ndarray (0-d for a scalar)."""
        out = _numpy.to_array(_engine, self._js, self.dtype.name)
        return out if dtype is None else out.astype(dtype, copy=False)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A NumPy ufunc of a tf Tensor (``np.sin(t)``) is an ndarray, as in TensorFlow."""
        return array[()] if return_scalar else array

    def __repr__(self):
        shape = tuple(self.shape)
        shape_text = str(shape) if len(shape) != 1 else f"({shape[0]},)"
        values = self.tolist()
        name = self.dtype.name
        is_float = self.dtype.is_floating
        if isinstance(values, list):
            body = _numpy_text(values, is_float, len("array("))
            # NumPy names every dtype but its defaults (float64, int64) and bool.
            suffix = ")" if name in ("float64", "int64", "bool") else f", dtype={name})"
            if not values:
                body = "[]"
            numpy = f"array({body}{suffix}"
            if "\n" in numpy:
                numpy = "\n" + numpy
        else:
            numpy = _scalar0(values, is_float)
        return f"<tf.Tensor: shape={shape_text}, dtype={name}, numpy={numpy}>"

    def __str__(self):
        values = self.tolist()
        if isinstance(values, list):
            text = _numpy_text(values, self.dtype.is_floating, len("tf.Tensor("), commas=False)
        else:
            text = _scalar0(values, self.dtype.is_floating)
        return f"tf.Tensor({text}, shape={tuple(self.shape)}, dtype={self.dtype.name})"

    def __bool__(self):
        if self._js.numel() != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return builtins.bool(self.item())

    def __index__(self):
        """``class_names[train_labels[0]]``: integer scalars index as NumPy's do (TensorFlow's rule)."""
        if self.dtype.is_floating or self.dtype.is_bool or self._js.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return builtins.int(self.item())

    def _call(self, name, member, args, kwargs):
        # NumPy operands (t + a, a * t) go to this tensor's device, as TensorFlow converts them.
        if any(type(a).__module__ == "numpy" for a in args):
            args = [b.numpy_to_js(a, str(self._js.device), False) if type(a).__module__ == "numpy" else a for a in args]
        return _TorchTensor._call(self, name, member, args, kwargs)

    def __getattr__(self, name):
        member = _TorchTensor.__getattr__(self, name)
        if callable(member):
            return lambda *args, **kwargs: _relabel(member(*args, **kwargs))
        return _relabel(member)

    def __rfloordiv__(self, other):
        return _relabel(b.call(tf_js.constant, other, self._js.dtype)) // self

    def __rmod__(self, other):
        return _relabel(b.call(tf_js.constant, other, self._js.dtype)) % self


def _relabelled(name):
    method = getattr(_TorchTensor, name)

    def wrapper(self, *args):
        return _relabel(method(self, *args))

    wrapper.__name__ = name
    return wrapper


for _name in (
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__truediv__",
    "__rtruediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
    "__rpow__",
    "__matmul__",
    "__rmatmul__",
    "__neg__",
    "__abs__",
    "__invert__",
    "__and__",
    "__rand__",
    "__or__",
    "__ror__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__getitem__",
    "detach",
):
    setattr(Tensor, _name, _relabelled(_name))
# The torch handle's other methods (max, min, reshape, clone, …) also answer tf Tensors.
for _name, _member in list(vars(_TorchTensor).items()):
    if not _name.startswith("_") and callable(_member) and _name not in vars(Tensor):
        setattr(Tensor, _name, _relabelled(_name))
del _name, _member
Tensor.__hash__ = object.__hash__
