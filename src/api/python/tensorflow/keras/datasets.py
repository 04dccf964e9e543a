"""tf.keras.datasets: the TS layer's `tf.keras.datasets` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.datasets import ...` works as `tf.keras.datasets.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.datasets)


def __getattr__(name):
    return getattr(_names, name)
