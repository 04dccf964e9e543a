"""tf.keras.metrics: the TS layer's `tf.keras.metrics` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.metrics import ...` works as `tf.keras.metrics.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.metrics)


def __getattr__(name):
    return getattr(_names, name)
