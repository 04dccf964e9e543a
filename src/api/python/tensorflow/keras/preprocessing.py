"""tf.keras.preprocessing: the TS layer's `tf.keras.preprocessing` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.preprocessing import ...` works as `tf.keras.preprocessing.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.preprocessing)


def __getattr__(name):
    return getattr(_names, name)
