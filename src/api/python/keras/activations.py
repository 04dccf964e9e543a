"""keras.activations: Keras 3's name for `tf.keras.activations` (the same functions)."""

from tensorflow.keras import activations as _tf_keras_activations


def __getattr__(name):
    return getattr(_tf_keras_activations, name)
