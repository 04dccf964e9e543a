"""tf.keras.utils over the TS layer's ``tf.keras.utils`` (src/api/tf/keras/utils.ts): the values
are computed there; this module gives Keras's Python results. ``to_categorical`` and
``normalize`` return NumPy arrays when NumPy is loaded (Keras returns arrays), tensors otherwise;
``set_random_seed`` also seeds ``random`` and a loaded NumPy; ``plot_model`` returns the layer
graph as an SVG image for the notebook to show."""

import random as _random

from torch import _numpy

from .._js_object import JsObject as _JsObject
from .._tensor import Tensor as _Tensor
from .._tensor import as_dtype as _as_dtype
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.utils)


def _dtype_name(dtype):
    return dtype if isinstance(dtype, str) else _as_dtype(dtype).name


def _as_result(value, dtype=None):
    """NumPy's array of a TS result once NumPy is loaded (as Keras returns), else the tensor."""
    np = _numpy.loaded()
    if np is None or not isinstance(value, _Tensor):
        return value
    array = np.asarray(value.numpy())
    return array if dtype is None else array.astype(dtype)


def to_categorical(y, num_classes=None, dtype="float32"):
    name = _dtype_name(dtype)
    return _as_result(_names.to_categorical(y, num_classes, name), name)


def normalize(x, axis=-1, order=2):
    return _as_result(_names.normalize(x, axis, order))


def set_random_seed(seed):
    """Seeds Python's ``random``, NumPy's global generator (when NumPy is loaded) and the engine's
    generator (``tf.random.set_seed``), as Keras does."""
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    _random.seed(seed)
    np = _numpy.loaded()
    if np is not None:
        np.random.seed(seed)
    _names.set_random_seed(seed)


def plot_model(
    model,
    to_file="model.png",
    show_shapes=False,
    show_dtype=False,
    show_layer_names=True,
    rankdir="TB",
    expand_nested=False,
    dpi=96,
    layer_range=None,
    show_layer_activations=False,
    show_trainable=False,
    **kwargs,
):
    """The model's layer graph as an SVG image (``IPython.display.SVG``; a cell's last expression
    shows it). Keras draws a PNG with Graphviz, which the browser does not have: the file
    ``to_file`` is written only when it names an ``.svg`` file."""
    from IPython.display import SVG

    svg = _names.plot_model(
        model,
        to_file,
        show_shapes,
        show_dtype,
        show_layer_names,
        rankdir,
        expand_nested,
        dpi,
        layer_range,
        show_layer_activations,
        show_trainable,
    )
    if isinstance(to_file, str) and to_file.lower().endswith(".svg"):
        with open(to_file, "w") as f:
            f.write(svg)
    return SVG(svg)


def register_keras_serializable(package="Custom", name=None):
    """The decorator custom layers and models carry: returns the class unchanged (there is no whole
    model file format here that would look classes up by name)."""

    def decorate(obj):
        return obj

    return decorate


def get_custom_objects():
    return {}


def __getattr__(name):
    return getattr(_names, name)
