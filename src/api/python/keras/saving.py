"""keras.saving: ``register_keras_serializable`` and ``get_custom_objects`` (tf.keras.utils's), so
custom layers written for Keras 3 import; models are saved as weights here (``save_weights``)."""

from tensorflow.keras.utils import get_custom_objects, register_keras_serializable  # noqa: F401
