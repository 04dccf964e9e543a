"""tf.keras over the TS layer's Keras (src/api/tf/keras/): ``from tensorflow.keras import *``
brings ``models``, ``layers``, ``losses``, ``metrics``, ``optimizers``, ``datasets``,
``preprocessing``, ``callbacks``, as in TensorFlow; each is also a module
(``from tensorflow.keras.layers import Dense``)."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf
from . import (  # noqa: F401  re-exported: tf.keras.layers, …
    activations,
    backend,
    callbacks,
    datasets,
    layers,
    losses,
    metrics,
    models,
    optimizers,
    preprocessing,
    utils,
)

_keras = _JsObject(_tf.keras)
Sequential = _keras.Sequential
Input = _keras.Input  # the functional API's symbolic input (area E)
from ._subclassing import Model  # noqa: E402, F401  a Python class, to subclass (functional too)

__all__ = [
    "models",
    "layers",
    "losses",
    "metrics",
    "optimizers",
    "datasets",
    "preprocessing",
    "callbacks",
    "utils",
]
