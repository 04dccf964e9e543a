"""tf.keras.layers: the TS layer's `tf.keras.layers` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.layers import ...` works as `tf.keras.layers.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf
from ._subclassing import Layer  # noqa: F401  a Python class, to subclass

_names = _JsObject(_tf.keras.layers)


def __getattr__(name):
    return getattr(_names, name)
