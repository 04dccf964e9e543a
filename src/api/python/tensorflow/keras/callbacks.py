"""tf.keras.callbacks: ``Callback`` to subclass in Python (its hooks are called by fit through
the TS layer's Callback, see _callables.py), and the TS layer's callbacks (``EarlyStopping``,
``ModelCheckpoint``, ``History``) under TensorFlow's Python names, so ``from tensorflow.keras.callbacks import ...``
works as ``tf.keras.callbacks.Name`` does."""

from .._js_object import JsObject as _JsObject
from .._tensor import tf_js as _tf

_names = _JsObject(_tf.keras.callbacks)


class Callback:
    """Keras's base class: override the hooks you need. ``fit`` calls ``on_train_begin``,
    ``on_epoch_begin``, ``on_train_batch_end``, ``on_test_batch_end``, ``on_epoch_end`` and
    ``on_train_end`` (epochs and batches count from 0, as in Keras; logs are dicts of numbers).
    ``self.model`` is the model being trained, ``self.params`` fit's ``epochs``, ``steps``,
    ``verbose``."""

    def __init__(self):
        self.model = None
        self.params = {}
        self.validation_data = None

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        pass

    def on_train_batch_end(self, batch, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass


def __getattr__(name):
    return getattr(_names, name)
