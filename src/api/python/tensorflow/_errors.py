"""Engine errors as the exceptions TensorFlow raises (ValueError for bad arguments,
RuntimeError for bad timing such as configuring devices after they were initialised)."""

from pyodide.ffi import JsException

from torch import _bridge as b

from . import _callables, _tensor


def translate(error):
    """The exception to raise for a JS error: the user's own exception when a Python callable
    raised it inside the TS layer (its traceback shows the user's frames), else TensorFlow's."""
    name = getattr(error.js_error, "name", "Error")
    if name in ("PythonCallableError", "PythonError"):
        raised = _callables.take_pending()
        if raised is not None:
            return raised
    message = str(getattr(error.js_error, "message", error))
    if name == "ValueError" or name == "DeviceSettingsError":
        return ValueError(message)
    if name == "TypeError":
        return TypeError(message)
    if name == "RangeError":
        return IndexError(message)
    return RuntimeError(message)


def call(fn, *args, **kwargs):
    """A TS layer call with Python arguments; tensors come back as tf Tensors."""
    js_args = [b.to_js_value(a) for a in args]
    if kwargs and any(v is not None for v in kwargs.values()):
        js_args.append(b.options(kwargs))
    try:
        result = fn(*js_args)
    except JsException as error:
        raise translate(error) from None
    return _tensor._relabel(b.from_js(result))
