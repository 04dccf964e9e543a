"""tf.keras.callbacks: ``Callback`` to subclass in Python (its hooks are called by fit through
the TS layer's Callback, see _callables.py), and the TS layer's callbacks (``EarlyStopping``,
``ModelCheckpoint``, ``History``) under TensorFlow's Python names, so ``from tensorflow.keras.callbacks import ...``
works as ``tf.keras.callbacks.Name`` does."""

import inspect as _inspect

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


def _takes_lr(schedule):
    """Whether ``schedule`` takes ``(epoch, lr)``: Keras calls it so, and falls back to
    ``schedule(epoch)`` when that raises TypeError; the signature says it without a failed call."""
    try:
        params = list(_inspect.signature(schedule).parameters.values())
    except (TypeError, ValueError):
        return True
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return True
    return len([p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]) >= 2


def LearningRateScheduler(schedule, verbose=0):  # noqa: N802  Keras's class name
    """Keras's ``LearningRateScheduler``: at each epoch's start the rate becomes
    ``schedule(epoch, lr)`` (or ``schedule(epoch)``), a float."""
    takes_lr = _takes_lr(schedule)

    def rate(epoch, lr):
        value = schedule(epoch, lr) if takes_lr else schedule(epoch)
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {value}') from None

    return _names.LearningRateScheduler(rate, verbose=verbose)


def __getattr__(name):
    return getattr(_names, name)
