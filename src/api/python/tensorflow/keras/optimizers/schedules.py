"""tf.keras.optimizers.schedules: the TS layer's learning-rate schedules (src/api/tf/keras/
schedules.ts) under TensorFlow's Python names, so ``from tensorflow.keras.optimizers.schedules
import ExponentialDecay`` works as ``tf.keras.optimizers.schedules.ExponentialDecay`` does."""

from ..._js_object import JsObject as _JsObject
from ..._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.optimizers.schedules)


def __getattr__(name):
    return getattr(_names, name)
