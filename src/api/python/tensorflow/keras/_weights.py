"""Keras's weight methods on a model or layer handle (``get_weights``, ``set_weights``,
``save_weights``, ``load_weights``), over the TS layer's ``weights`` (layers in order, each
layer's weights in Keras's order: kernel then bias) and its ``saveWeights``/``loadWeights``
(engine serialization into the kernel's file store).

``get_weights`` returns what ``Tensor.numpy()`` returns: NumPy arrays once NumPy is imported, as
Keras, else plain nested lists. ``set_weights`` takes arrays, nested lists, numbers or
``tf.Tensor`` values, one per weight, and checks each shape against the weight's as Keras does."""

from torch import _bridge as b
from torch import _numpy

from .. import _tensor

METHODS = ("get_weights", "set_weights", "save_weights", "load_weights")


def _shape_of(value):
    """The shape of nested lists (ragged lists are an error, as NumPy would make them)."""
    if isinstance(value, (list, tuple)):
        if not value:
            return (0,)
        inner = [_shape_of(v) for v in value]
        if any(s != inner[0] for s in inner):
            raise ValueError("set_weights: a weight value is a ragged nested list")
        return (len(value),) + inner[0]
    return ()


def _flat(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            _flat(v, out)
    else:
        out.append(float(value))
    return out


def get_weights(handle):
    """The weights' current values (reads them back from their device)."""
    from .._js_object import wrap

    return [w.numpy() for w in wrap(handle._js.weights)]


def set_weights(handle, weights):
    from pyodide.ffi import to_js

    from .._js_object import wrap

    current = wrap(handle._js.weights)
    weights = list(weights)
    if len(weights) != len(current):
        raise ValueError(
            f"You called `set_weights(weights)` on layer '{handle._js.name}' with a weight list "
            f"of length {len(weights)}, but the layer was expecting {len(current)} weights."
        )
    values = []
    for w, value in zip(current, weights):
        expected = tuple(w.shape)
        if isinstance(value, _tensor._TorchTensor):
            given = tuple(value.shape)
            js_value = value._js
        elif _numpy.is_ndarray(value):
            given = tuple(value.shape)
            js_value = b.numpy_to_js(value, "tf")
        else:
            given = _shape_of(value)
            js_value = to_js(_flat(value, []))
        if given != expected:
            raise ValueError(
                f"Layer {handle._js.name} weight shape {expected} is not compatible with provided weight shape {given}."
            )
        values.append(js_value)
    handle._js.setWeights(to_js(values, create_pyproxies=False))


def save_weights(handle, filepath, overwrite=True, save_format=None, options=None):
    from .._js_object import invoke

    if save_format not in (None, "tf", "h5"):
        raise ValueError(f"save_weights: unknown save_format {save_format!r}")
    invoke(handle._js.saveWeights, (str(filepath),), {"overwrite": overwrite}, receiver=handle._js)


def load_weights(handle, filepath, skip_mismatch=False, by_name=False, options=None):
    from .._js_object import invoke

    if by_name or skip_mismatch:
        raise NotImplementedError("load_weights: by_name and skip_mismatch are not supported (weights load in order)")
    invoke(handle._js.loadWeights, (str(filepath),), {}, receiver=handle._js)
