"""tf.keras.activations: the TS layer's `tf.keras.activations` (src/api/tf/keras/activation-functions.ts)
under Keras's Python names, so `from tensorflow.keras.activations import gelu` works as
`tf.keras.activations.gelu` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.activations)


def __getattr__(name):
    return getattr(_names, name)
