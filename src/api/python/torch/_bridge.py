"""How our Python packages reach the engine (the JavaScript module ``_gpubook``, see bridge.ts).

Synchronous reads. PyTorch reads values synchronously (``loss.item()``, ``print(t)``), but the
engine reads a GPU buffer back with a Promise (WebGPU's ``mapAsync``). We wait for it with
Pyodide's ``run_sync`` (JavaScript Promise Integration): the WebAssembly stack of the running
Python code is suspended until the Promise settles and then resumed, so Python sees an ordinary
return value. We chose it over a second worker blocking on a SharedArrayBuffer with
``Atomics.wait`` because the engine, its device and its buffers live in this one worker: JSPI
needs no copy of the tensor and no second WebGPU device, and a read costs about one ``mapAsync``.
It requires that cells run through Pyodide's async entry point (``runPythonAsync``), which the
kernel does; in Node, JSPI needs ``--experimental-wasm-stack-switching``. Only reads wait:
queued GPU work is not synchronised per op.

Faces. The ``torch`` and ``tensorflow`` packages call the engine through the same ``call``,
``new`` and ``wait`` (a :class:`Face`); each face says which Python exception an engine error
becomes and what a result is shown as. This module's own ``call``, ``new``, ``wait`` and
``translate`` are PyTorch's (used by torch, torchvision, torchmetrics, …); TensorFlow's are in
``tensorflow/_errors.py``. :data:`DTYPES` is the one table of the dtypes both faces name.
"""

import re
from collections import namedtuple

import _gpubook as host
import js
from pyodide.ffi import JsException, JsProxy, create_proxy, jsnull, run_sync, to_js  # noqa: F401  re-exported to the packages

_GPU_NAME = re.compile(r"\bgpu:(\d+)")

_tensor_type = None  # set by torch._tensor: the Python Tensor class
_parameter_type = None  # set by torch.nn.parameter: the Python Parameter class


_PLAIN = (int, float, str, bool)


_CAMEL = {}


def camel(name):
    """PyTorch's snake_case keyword → the TS layer's camelCase (``requires_grad`` → ``requiresGrad``);
    kept per name, as each method call and keyword asks again."""
    js_name = _CAMEL.get(name)
    if js_name is None:
        js_name = _CAMEL[name] = _camel(name)
    return js_name


def _camel(name):
    if name.endswith("_"):
        return _camel(name[:-1]) + "_"
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def element_kinds(data, tensor_kind=None):
    """The kinds of the leaves of nested lists and tuples, for dtype inference: "bool", "int",
    ``tensor_kind(leaf)`` for a tensor when given, and "other" for anything else."""
    kinds = set()

    def walk(v):
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, bool):
            kinds.add("bool")
        elif isinstance(v, int):
            kinds.add("int")
        elif tensor_kind is not None and isinstance(v, _tensor_type):
            kinds.add(tensor_kind(v))
        elif type(v).__module__ == "numpy" and v.dtype.kind in "biu":  # NumPy's bool and int scalars
            kinds.add("bool" if v.dtype.kind == "b" else "int")
        else:
            kinds.add("other")

    walk(data)
    return kinds


def to_js_value(value, each=None):
    """A Python argument as the TS layer takes it: tensors unwrapped, lists as arrays, dicts as objects.
    ``each``: how the items of a list, tuple or dict are converted (a face's own rules; default this)."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, _tensor_type):
        if value._np is not None:
            value._sync()  # an array tied to it may have changed (torch/_numpy.py)
        return value._js
    if type(value).__module__ == "numpy":
        return numpy_to_js(value)
    js_value = getattr(value, "_js_value", None)
    if js_value is not None:
        return js_value()
    if isinstance(value, JsProxy):
        return value
    each = each or to_js_value
    if isinstance(value, (list, tuple)):
        return to_js([each(v) for v in value], create_pyproxies=False)
    if isinstance(value, dict):
        return to_js(
            {str(k): each(v) for k, v in value.items()},
            dict_converter=js.Object.fromEntries,
            create_pyproxies=False,
        )
    if hasattr(value, "__iter__") and not hasattr(value, "__len__"):
        return to_js([to_js_value(v) for v in value], create_pyproxies=False)
    raise TypeError(f"cannot pass {type(value).__name__} to the engine")


def numpy_to_js(value, device="cpu", byte_order=None):
    """A NumPy scalar as its Python number; an ndarray as a new engine tensor on ``device`` (the
    CPU, as PyTorch takes one in ``t + a``; 'tf': TensorFlow's default device), which the engine's
    lifetimes cover (ownership.ts). ``byte_order``: refuse other byte orders (PyTorch does,
    TensorFlow converts; by default only for devices other than 'tf')."""
    from . import _numpy
    from . import _numpy_engine as engine

    return _numpy.argument(engine, value, device, device != "tf" if byte_order is None else byte_order)


def options(kwargs, each=to_js_value):
    """Keyword arguments as the TS layer's trailing options object, camelCased (None: absent);
    ``each`` converts the values."""
    return to_js(
        {camel(k): each(v) for k, v in kwargs.items() if v is not None},
        dict_converter=js.Object.fromEntries,
        create_pyproxies=False,
    )


_JS_TYPES = {t: False for t in _PLAIN}


def _is_js(kind):
    """Whether values of this type are JS proxies. isinstance(…, JsProxy) is slow in Pyodide (a
    metaclass check in Python, a few µs), and Pyodide makes one proxy type per combination of JS
    features, so the answer is kept per type."""
    known = _JS_TYPES.get(kind)
    if known is None:
        known = _JS_TYPES[kind] = issubclass(kind, JsProxy)
    return known


def from_js(value, fresh=True):
    """A JS result as Python sees it. ``fresh``: a tensor the call made (Python owns it)."""
    if value is None or value is jsnull:
        return None
    if not _is_js(type(value)):
        return value
    kind = host.adopt(value, fresh)  # retains a tensor for the wrapper made below
    if kind == "tensor":
        return _tensor_type._adopted(value)
    if kind == "parameter":
        return _parameter_type._adopted(value)
    if kind == "values_indices":
        from torch._tensor import return_types

        pair = return_types.of(str(value.kind))
        return pair(from_js(value.values, fresh), from_js(value.indices, fresh))
    if kind == "array":
        return [from_js(v, fresh) for v in value]
    return value


class Face:
    """One Python package's face on the engine: ``call``, ``new`` and ``wait`` with the exceptions
    and results that package gives.

    ``error(name, message)``: the Python exception to raise for an engine error, from the JS
    error's ``name`` and ``message`` (its error-mapping policy). ``result``: what a ``call``'s
    result (as :func:`from_js` gives it) becomes in this package; None keeps it as it is.
    ``arrays``: the device NumPy arrays passed as arguments go to (:func:`numpy_to_js`)."""

    __slots__ = ("error", "result", "arrays")

    def __init__(self, error, result=None, arrays="cpu"):
        self.error = error
        self.result = result
        self.arrays = arrays

    def _arg(self, value):
        if type(value).__module__ == "numpy":
            return numpy_to_js(value, self.arrays)
        return to_js_value(value)

    def translate(self, error):
        """A ``JsException`` from the engine as this package's Python exception."""
        js_error = error.js_error
        return self.error(getattr(js_error, "name", "Error"), str(getattr(js_error, "message", error)))

    def call(self, fn, *args, **kwargs):
        """Calls a JS function with Python arguments; returns its result as Python."""
        js_args = [self._arg(a) for a in args]
        if kwargs and any(v is not None for v in kwargs.values()):
            js_args.append(options(kwargs))
        try:
            result = fn(*js_args)
        except JsException as error:
            raise self.translate(error) from None
        if self.result is None:
            return from_js(result)
        return self.result(from_js(result))

    def new(self, cls, *args, **kwargs):
        """``new cls(...)`` with Python arguments."""
        js_args = [self._arg(a) for a in args]
        if kwargs:
            js_args.append(options(kwargs))
        try:
            return cls.new(*js_args)
        except JsException as error:
            raise self.translate(error) from None

    def function(self, js_namespace, name):
        """The function of a TS layer namespace under this package's snake_case name (``zeros_like``
        is ``zerosLike``), called through :meth:`call`; None when there is none. The packages'
        modules and namespaces find the names they do not write out this one way, so an engine op
        needs no Python line."""
        member = None if name.startswith("_") else getattr(js_namespace, camel(name), None)
        if member is None or not callable(member):
            return None

        def fn(*args, **kwargs):
            return self.call(member, *args, **kwargs)

        fn.__name__ = name
        return fn

    def wait(self, promise):
        """Waits for a JS Promise (a GPU read-back) and returns its value; see the module doc."""
        try:
            return run_sync(promise)
        except JsException as error:
            raise self.translate(error) from None


def _pytorch_error(name, message):
    """PyTorch's exception for an engine error, with PyTorch's device names: the engine names GPUs
    ``gpu:N``, PyTorch's messages (and our ``.device``) say ``cuda:N``."""
    message = _GPU_NAME.sub(r"cuda:\1", message)
    if name == "TypeError":
        return TypeError(message)
    if name == "RangeError" or "out of range" in message or "out of bounds" in message:
        return IndexError(message)
    return RuntimeError(message)


PYTORCH = Face(_pytorch_error)
translate, call, new, wait = PYTORCH.translate, PYTORCH.call, PYTORCH.new, PYTORCH.wait


# The dtypes the Python packages name and how the engine stores them. The engine has float32 and
# int32 only: floats of every width are stored as float32, integers as int32 (labels and indices
# fit), bool as int32 0/1 marked bool; strings (tf.string) are host-side Python values.
# ``faces``: the packages that name the dtype; each binds its dtypes in this order.
Dtype = namedtuple("Dtype", ["name", "engine", "is_floating", "faces"])
DTYPES = (
    Dtype("float32", "float32", True, ("torch", "tf")),
    Dtype("float64", "float32", True, ("torch", "tf")),
    Dtype("float16", "float32", True, ("torch", "tf")),
    Dtype("bfloat16", "float32", True, ("torch",)),
    Dtype("int64", "int32", False, ("torch", "tf")),
    Dtype("int32", "int32", False, ("torch", "tf")),
    Dtype("int16", "int32", False, ("torch",)),
    Dtype("int8", "int32", False, ("torch", "tf")),
    Dtype("uint8", "int32", False, ("torch", "tf")),
    Dtype("bool", "int32", False, ("torch", "tf")),
    Dtype("string", None, False, ("tf",)),
)


def dtypes(face, make):
    """``{name: make(row)}`` for each row of :data:`DTYPES` that ``face`` names, in table order."""
    return {row.name: make(row) for row in DTYPES if face in row.faces}
