"""Tensors ⇄ NumPy arrays for the ``torch`` and ``tensorflow`` faces.

The engine is reached through a narrow interface (an object with three functions), so this module
runs unchanged under CPython with a pure-Python stand-in for the engine (the tests do that):

- ``export(handle) -> (buffer, engine_dtype, shape)``: the values, row-major, as one buffer of
  float32 or int32 ("float32"/"int32");
- ``import_(buffer, engine_dtype, shape, device) -> handle``: a new engine tensor from such a buffer;
- ``assign(handle, buffer)``: overwrites an engine tensor's values in place.

Every conversion is one bulk copy each way (never a Python loop over elements).

Shared memory. PyTorch's CPU tensor and the array from ``t.numpy()`` / ``torch.from_numpy(a)``
are one piece of memory; ours are not (the engine's memory is not NumPy's), so a tensor keeps a
:class:`Shared` record of the arrays it is tied to: the array it was made from (strongly, as
PyTorch keeps it alive) and the arrays it exported (weakly). Before its values are read the arrays
are compared with a copy of the values last synchronised (only the row read, for ``t[i]``), and an
array that changed is copied into the tensor; after an in-place op on the tensor its values are
copied into the arrays.
"""

import re
import sys
import weakref

NO_NUMPY = (
    "Numpy is not available: gpubook's Python loads NumPy when a cell runs `import numpy` in a "
    "browser that is online (it is not bundled). Use t.tolist() or t.item() instead."
)

# The dtypes PyTorch converts, in its own error message's order (complex ones are named by
# PyTorch, but the engine has no complex numbers, so they fail below with their own message).
TORCH_NAMES = ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool")
_PYTORCH_LIST = "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool"


def loaded():
    """NumPy if a cell (or a package) imported it, else None: faces that have a NumPy-free
    answer (tf's ``numpy()``) use arrays only then, without trying an import."""
    return sys.modules.get("numpy")


def require():
    """NumPy, imported now if it is installed; PyTorch's RuntimeError (with how to get it) if not."""
    np = loaded()
    if np is not None:
        return np
    try:
        import numpy as np
    except ImportError:
        raise RuntimeError(NO_NUMPY) from None
    return np


def is_numpy(value):
    """An ndarray or a NumPy scalar (without importing NumPy: none exists unless it is loaded)."""
    return type(value).__module__ == "numpy"


def is_ndarray(value):
    np = loaded()
    return np is not None and isinstance(value, np.ndarray)


def engine_dtype_of(name):
    """How the engine stores a NumPy dtype: floats as float32, integers and bools as int32."""
    return "float32" if name.startswith("float") else "int32"


def check_convertible(a, *, byte_order=True):
    """PyTorch's errors for arrays it cannot convert (``byte_order``: non-native byte order too)."""
    name = a.dtype.name
    if a.dtype.kind == "c":
        raise TypeError(f"can't convert np.ndarray of type numpy.{name}: gpubook's engine has no complex numbers.")
    if name not in TORCH_NAMES:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{a.dtype.type.__name__}. "
            f"The only supported types are: {_PYTORCH_LIST}."
        )
    if byte_order and not a.dtype.isnative:
        raise ValueError(
            "given numpy array has byte order different from the native byte order. "
            "Conversion between byte orders is currently not supported."
        )


def as_array(value):
    """An ndarray for an ndarray or a NumPy scalar (0-d), else None."""
    if not is_numpy(value):
        return None
    np = loaded()
    return np.asarray(value)


def _engine_buffer(np, a):
    """``a``'s values as one flat, native, C-ordered buffer of the engine's element type (one
    bulk copy, none when ``a`` already is that)."""
    dt = np.float32 if a.dtype.kind == "f" else np.int32
    flat = np.ascontiguousarray(a, dtype=dt).reshape(-1)
    return memoryview(flat)


def to_engine(engine, a, device):
    """A new engine tensor holding ``a``'s values (``a`` checked by the caller)."""
    np = loaded()
    name = a.dtype.name
    return engine.import_(_engine_buffer(np, a), engine_dtype_of(name), tuple(int(d) for d in a.shape), device)


def argument(engine, value, device, byte_order=True):
    """A NumPy value passed to the engine: a scalar as its Python number, an ndarray as a new
    engine tensor on ``device`` ('tf': TensorFlow's default device). ``byte_order``: refuse
    other byte orders, as PyTorch does (TensorFlow converts them)."""
    a = as_array(value)
    if a.ndim == 0 and not isinstance(value, loaded().ndarray):
        return a.item()
    check_convertible(a, byte_order=byte_order)
    return to_engine(engine, a, device)


def results_as_arrays(value, tensor_type, tuples=False):
    """Tensors in a result (nested in lists, tuples, dicts) as ndarrays, as Keras's ``predict``
    returns them; ``tuples``: lists become tuples, as ``as_numpy_iterator`` yields dataset
    elements (the TS layer's arrays are TensorFlow's tuples)."""
    if isinstance(value, tensor_type):
        return value.numpy()
    if isinstance(value, (list, tuple)):
        items = (results_as_arrays(v, tensor_type, tuples) for v in value)
        return tuple(items) if tuples else type(value)(items)
    if isinstance(value, dict):
        return {k: results_as_arrays(v, tensor_type, tuples) for k, v in value.items()}
    return value


def to_array(engine, handle, dtype_name):
    """A new ndarray (NumPy dtype ``dtype_name``) of an engine tensor's values."""
    np = require()
    buffer, engine_dtype, shape = engine.export(handle)
    flat = np.frombuffer(buffer, dtype=np.float32 if engine_dtype == "float32" else np.int32)
    out = flat.reshape(tuple(shape))
    if out.dtype.name != dtype_name or not out.flags.writeable:
        out = out.astype(dtype_name)  # a copy the caller owns (the buffer was a fresh one)
    return out


_SUFFIX = re.compile(r",\s+(device='[^']*'|size=\([^)]*\)|dtype=torch\.\w+|grad_fn=<\w+>|requires_grad=True)$")


def repr_with_dtype(text, name, linewidth=80):
    """A tensor's repr as the engine prints it (float32, int64 and bool print no dtype) with the
    ``dtype=torch.<name>`` PyTorch adds for other dtypes: after the device (and an empty tensor's
    size), before grad_fn or requires_grad, each suffix on a new line when the line would pass
    ``linewidth``, as PyTorch's ``_add_suffixes``."""
    if name in ("float32", "int64", "bool"):
        return text
    body, suffixes = text[:-1], []
    while (m := _SUFFIX.search(body)) is not None:
        if not m.group(1).startswith("dtype="):  # the engine's own dtype is replaced
            suffixes.insert(0, m.group(1))
        body = body[: m.start()]
    at = max((i + 1 for i, s in enumerate(suffixes) if s.startswith(("device=", "size="))), default=0)
    suffixes.insert(at, f"dtype=torch.{name}")
    indent = len("tensor(")
    parts = [body]
    last_line = len(body) - body.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    return "".join(parts) + ")"


def _copy(a):
    return loaded().array(a, order="C")  # one bulk copy, whatever the strides


def _same(a, b):
    """Equal values (NaN equal to NaN, so an array holding NaN is not taken as changed)."""
    np = loaded()
    if a.shape != b.shape:
        return False
    if np.array_equal(a, b):
        return True
    return a.dtype.kind in "fc" and np.array_equal(a, b, equal_nan=True)


class Shared:
    """What one tensor shares with NumPy: ``dtype`` (the NumPy dtype name it stands for, None for
    the face's default), the array it was made from (``source``, held), arrays it exported (held
    weakly) and ``snapshot``, a copy of their values as last synchronised with the tensor.
    ``skip``: the read under way was already checked (``before_row_read``)."""

    __slots__ = ("dtype", "source", "exports", "snapshot", "skip")

    def __init__(self, dtype=None, source=None):
        self.dtype = dtype
        self.source = source
        self.exports = []
        self.snapshot = None if source is None else _copy(source)
        self.skip = False

    def arrays(self):
        out = [] if self.source is None else [self.source]
        alive = []
        for ref in self.exports:
            a = ref()
            if a is not None:
                alive.append(ref)
                out.append(a)
        self.exports = alive
        return out

    @property
    def tied(self):
        return self.source is not None or bool(self.exports)

    def before_read(self, engine, handle):
        """Copies into the tensor an array changed since the last synchronisation (NumPy wrote
        it), and into the other arrays. Costs a comparison of the whole array."""
        if self.snapshot is None or self.skip:
            return
        arrays = self.arrays()
        for a in arrays:
            if not _same(a, self.snapshot):
                engine.assign(handle, _engine_buffer(loaded(), a))
                self.snapshot = _copy(a)
                for other in arrays:
                    if other is not a:
                        other[...] = a
                return
        if not arrays:
            self.snapshot = None

    def before_row_read(self, engine, handle, i):
        """Before a read of row ``i`` only (``t[i]``: a DataLoader's ``dataset[i]``): compares that
        row, and the whole array only if the row changed; the rows not read are checked by the
        next whole read. The caller sets ``skip`` for the read itself."""
        if self.snapshot is None or self.snapshot.ndim == 0:
            return
        n = self.snapshot.shape[0]
        if not -n <= i < n:
            return  # the read raises IndexError
        for a in self.arrays():
            if a.shape != self.snapshot.shape or not _same(a[i], self.snapshot[i]):
                self.before_read(engine, handle)
                return

    def after_write(self, engine, handle):
        """The tensor changed in place: its values into every tied array."""
        arrays = self.arrays()
        if not arrays:
            self.snapshot = None
            return
        fresh = to_array(engine, handle, arrays[0].dtype.name)
        for a in arrays:
            if a.shape == fresh.shape:
                a[...] = fresh
        self.snapshot = fresh

    def exported(self, a):
        """``a`` (a new array of the tensor's values) is now tied to the tensor."""
        self.exports.append(weakref.ref(a))
        if self.snapshot is None:
            self.snapshot = _copy(a)


def from_numpy(engine, a, device="cpu"):
    """PyTorch's ``torch.from_numpy(a)``: (engine handle, :class:`Shared` tying it to ``a``)."""
    np = loaded()
    if np is None or not isinstance(a, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(a).__name__})")
    check_convertible(a)
    return to_engine(engine, a, device), Shared(a.dtype.name, a)


def numpy_of(engine, handle, shared, default_dtype):
    """``t.numpy()`` of a CPU tensor: ``(array, shared)``, the array tied to the tensor through
    ``shared`` (made when None): the array it was made from, as a new view, when there is one."""
    if shared is not None and shared.source is not None:
        shared.before_read(engine, handle)
        return shared.source.view(), shared
    if shared is not None:
        shared.before_read(engine, handle)
    name = default_dtype if shared is None or shared.dtype is None else shared.dtype
    out = to_array(engine, handle, name)
    if shared is None:
        shared = Shared()
    shared.exported(out)
    return out, shared
