"""tf.keras.optimizers: the TS layer's `tf.keras.optimizers` (src/api/tf/keras/) under TensorFlow's Python
names, so `from tensorflow.keras.optimizers import ...` works as `tf.keras.optimizers.Name` does;
``schedules`` is a module too (``from tensorflow.keras.optimizers.schedules import ExponentialDecay``)."""

from ..._js_object import JsObject as _JsObject
from ..._tensor import tf_js as _tf
from . import schedules  # noqa: F401  re-exported: tf.keras.optimizers.schedules

_names = _JsObject(_tf.keras.optimizers)


def __getattr__(name):
    return getattr(_names, name)
