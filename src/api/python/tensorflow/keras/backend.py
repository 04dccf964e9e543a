"""tf.keras.backend: the TS layer's `tf.keras.backend` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.backend import ...` works as `tf.keras.backend.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.backend)


def __getattr__(name):
    return getattr(_names, name)
