"""``tf.keras.Input(...)`` and layer calls on it give symbolic ``KerasTensor`` handles (the TS
layer's, src/api/tf/keras/engine/keras-tensor.ts): Python sees their ``shape`` as a
``TensorShape`` (a tuple, None for unknown sizes) and their ``dtype`` as a ``tf.DType``."""

from .. import _tensor
from .._js_object import JsObject, wrap


class KerasTensor(JsObject):
    __slots__ = ()

    @property
    def shape(self):
        return _tensor.TensorShape(wrap(self._js.shape))

    @property
    def dtype(self):
        return _tensor.as_dtype(str(self._js.dtype))

    @property
    def ndim(self):
        return len(self.shape)


def is_keras_tensor(value):
    """Whether a JS value is a KerasTensor (its class marks itself, see keras-tensor.ts)."""
    try:
        return getattr(value, "isKerasTensor", False) is True
    except Exception:
        return False
