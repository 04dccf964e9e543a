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
"""

import re

import _gpubook as host
import js
from pyodide.ffi import JsException, JsProxy, create_proxy, jsnull, run_sync, to_js  # noqa: F401  re-exported to the packages

_GPU_NAME = re.compile(r"\bgpu:(\d+)")

_tensor_type = None  # set by torch._tensor: the Python Tensor class
_parameter_type = None  # set by torch.nn.parameter: the Python Parameter class


_PLAIN = (int, float, str, bool)


def camel(name):
    """PyTorch's snake_case keyword → the TS layer's camelCase (``requires_grad`` → ``requiresGrad``)."""
    if name.endswith("_"):
        return camel(name[:-1]) + "_"
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def to_js_value(value):
    """A Python argument as the TS layer takes it: tensors unwrapped, lists as arrays, dicts as objects."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, _tensor_type):
        return value._js
    js_value = getattr(value, "_js_value", None)
    if js_value is not None:
        return js_value()
    if isinstance(value, JsProxy):
        return value
    if isinstance(value, (list, tuple)):
        return to_js([to_js_value(v) for v in value], create_pyproxies=False)
    if isinstance(value, dict):
        return to_js(
            {str(k): to_js_value(v) for k, v in value.items()},
            dict_converter=js.Object.fromEntries,
            create_pyproxies=False,
        )
    if hasattr(value, "__iter__") and not hasattr(value, "__len__"):
        return to_js([to_js_value(v) for v in value], create_pyproxies=False)
    raise TypeError(f"cannot pass {type(value).__name__} to the engine")


def options(kwargs):
    """Keyword arguments as the TS layer's trailing options object, camelCased (None: absent)."""
    return to_js(
        {camel(k): to_js_value(v) for k, v in kwargs.items() if v is not None},
        dict_converter=js.Object.fromEntries,
        create_pyproxies=False,
    )


def from_js(value, fresh=True):
    """A JS result as Python sees it. ``fresh``: a tensor the call made (Python owns it)."""
    if value is None or value is jsnull:
        return None
    # Plain values first: isinstance(…, JsProxy) is slow in Pyodide (a metaclass check).
    if type(value) in _PLAIN or not isinstance(value, JsProxy):
        return value
    kind = host.adopt(value, fresh)  # retains a tensor for the wrapper made below
    if kind == "tensor":
        return _tensor_type._adopted(value)
    if kind == "parameter":
        return _parameter_type._adopted(value)
    if kind == "values_indices":
        from torch._tensor import return_types

        return return_types(from_js(value.values, fresh), from_js(value.indices, fresh))
    if kind == "array":
        return [from_js(v, fresh) for v in value]
    return value


def _pytorch_device_names(message):
    """The engine names GPUs ``gpu:N``; PyTorch's messages (and our ``.device``) say ``cuda:N``."""
    return _GPU_NAME.sub(r"cuda:\1", message)


def translate(error):
    """An engine error as the Python exception PyTorch raises, with the engine's message."""
    name = getattr(error.js_error, "name", "Error")
    message = _pytorch_device_names(str(getattr(error.js_error, "message", error)))
    if name == "TypeError":
        return TypeError(message)
    if name == "RangeError" or "out of range" in message or "out of bounds" in message:
        return IndexError(message)
    return RuntimeError(message)


def call(fn, *args, **kwargs):
    """Calls a JS function with Python arguments; returns its result as Python."""
    js_args = [to_js_value(a) for a in args]
    if kwargs and any(v is not None for v in kwargs.values()):
        js_args.append(options(kwargs))
    try:
        result = fn(*js_args)
    except JsException as error:
        raise translate(error) from None
    return from_js(result)


def new(cls, *args, **kwargs):
    """``new cls(...)`` with Python arguments."""
    js_args = [to_js_value(a) for a in args]
    if kwargs:
        js_args.append(options(kwargs))
    try:
        return cls.new(*js_args)
    except JsException as error:
        raise translate(error) from None


def wait(promise):
    """Waits for a JS Promise (a GPU read-back) and returns its value; see the module doc."""
    try:
        return run_sync(promise)
    except JsException as error:
        raise translate(error) from None
