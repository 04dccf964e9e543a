"""tf.keras.models: the TS layer's `tf.keras.models` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.models import ...` works as `tf.keras.models.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf
from ._subclassing import Model  # noqa: F401  a Python class, to subclass

_names = _JsObject(_tf.keras.models)


def __getattr__(name):
    return getattr(_names, name)
