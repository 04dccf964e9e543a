"""The engine behind ``torch/_numpy.py``'s interface, in Pyodide: an engine tensor's typed array ⇄
a Python buffer, one bulk copy each way (``to_memoryview`` / ``assign``), never element lists."""

import js

from . import _bridge as b

host = b.host


def export(handle):
    """(buffer, engine dtype, shape) of an engine tensor's values, read back (from the GPU too)."""
    typed = b.wait(handle.data())
    return typed.to_memoryview(), str(handle.dtype), tuple(handle.shape)


def import_(buffer, engine_dtype, shape, device):
    """A new engine tensor (not yet owned by any Python wrapper) of ``shape`` from a flat buffer;
    ``device``: an engine device name, or 'tf' for TensorFlow's default device."""
    typed = (js.Float32Array if engine_dtype == "float32" else js.Int32Array).new(len(buffer))
    if len(buffer):
        typed.assign(buffer)
    try:
        return host.fromTyped(typed, b.to_js(list(shape)), device)
    except b.JsException as error:
        raise b.translate(error) from None


def assign(handle, buffer):
    """Overwrites ``handle``'s values with ``buffer``'s (same count), in place."""
    fresh = import_(buffer, str(handle.dtype), tuple(handle.shape), str(handle.device))
    was_enabled = host.isGradEnabled()
    host.setGradEnabled(False)
    try:
        handle.copy_(fresh)
    finally:
        host.setGradEnabled(was_enabled)
        fresh.dispose()
