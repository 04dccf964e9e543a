"""tf.keras.callbacks: the TS layer's `tf.keras.callbacks` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.callbacks import ...` works as `tf.keras.callbacks.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.callbacks)


def __getattr__(name):
    return getattr(_names, name)
