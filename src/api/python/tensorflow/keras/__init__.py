"""tf.keras over the TS layer's Keras (src/api/tf/keras/): ``from tensorflow.keras import *``
brings ``models``, ``layers``, ``losses``, ``metrics``, ``optimizers``, ``datasets``,
``preprocessing``, ``callbacks``, as in TensorFlow."""

from .._js_object import JsObject
from .._tensor import tf_js

_keras = JsObject(tf_js.keras)

models = _keras.models
layers = _keras.layers
losses = _keras.losses
metrics = _keras.metrics
optimizers = _keras.optimizers
datasets = _keras.datasets
preprocessing = _keras.preprocessing
callbacks = _keras.callbacks
backend = _keras.backend
Sequential = _keras.Sequential
Model = _keras.Model

__all__ = [
    "models",
    "layers",
    "losses",
    "metrics",
    "optimizers",
    "datasets",
    "preprocessing",
    "callbacks",
]
