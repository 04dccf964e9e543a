"""Keras 3's spelling, ``import keras``, over the same Keras as ``tf.keras``
(src/api/python/tensorflow/keras/, the TS layer's src/api/tf/keras/): ``keras.layers``,
``keras.Sequential``, ``keras.Model``, ``keras.Input`` are tf.keras's own objects, and
``keras.ops`` maps Keras 3's op names and signatures onto ``tf``'s functions. The backend is
TensorFlow's face over gpubook's engine; nothing is computed here."""

from tensorflow import keras as _tf_keras
from tensorflow._js_object import JsObject as _JsObject
from tensorflow._tensor import tf_js as _tf

from . import (  # noqa: F401  re-exported: keras.layers, keras.ops, …
    activations,
    backend,
    callbacks,
    datasets,
    layers,
    losses,
    metrics,
    models,
    ops,
    optimizers,
    preprocessing,
    random,
    saving,
    utils,
)

__version__ = "3.3.3"

__all__ = [
    "activations",
    "backend",
    "callbacks",
    "datasets",
    "layers",
    "losses",
    "metrics",
    "models",
    "ops",
    "optimizers",
    "preprocessing",
    "random",
    "saving",
    "utils",
]

_ts_keras = _JsObject(_tf.keras)


def __getattr__(name):
    """``keras.Sequential``, ``keras.Model``, ``keras.Input``, …: tf.keras's names, read when asked
    (so names tf.keras gains later are here too), else the TS layer's."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_tf_keras, name)
    except AttributeError:
        pass
    try:
        return getattr(_ts_keras, name)
    except AttributeError:
        raise AttributeError(f"module 'keras' has no attribute '{name}'") from None
