"""TensorFlow's face on the bridge (``torch/_bridge.py``): engine errors as the exceptions
TensorFlow raises (ValueError for bad arguments, RuntimeError for bad timing such as configuring
devices after they were initialised), tensors returned as tf Tensors."""

from torch import _bridge as b

from . import _callables, _tensor


def _tensorflow_error(name, message):
    """The user's own exception when a Python callable raised it inside the TS layer (its
    traceback shows the user's frames), else TensorFlow's."""
    if name in ("PythonCallableError", "PythonError"):
        raised = _callables.take_pending()
        if raised is not None:
            return raised
    if name == "ValueError" or name == "DeviceSettingsError":
        return ValueError(message)
    if name == "TypeError":
        return TypeError(message)
    if name == "RangeError":
        return IndexError(message)
    return RuntimeError(message)


TENSORFLOW = b.Face(_tensorflow_error, _tensor._relabel, arrays="tf")
translate, call, new, wait = TENSORFLOW.translate, TENSORFLOW.call, TENSORFLOW.new, TENSORFLOW.wait
