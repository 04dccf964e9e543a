"""tf.keras.losses: the TS layer's `tf.keras.losses` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.losses import ...` works as `tf.keras.losses.Name` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.losses)


def __getattr__(name):
    return getattr(_names, name)
