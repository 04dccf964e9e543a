"""keras.backend: Keras 3's backend functions (``floatx``, ``epsilon``, ``image_data_format``,
``clear_session``) from tf.keras.backend; ``backend()`` names the backend, TensorFlow's face."""

from tensorflow.keras import backend as _tf_backend


def backend():
    return "tensorflow"


def __getattr__(name):
    return getattr(_tf_backend, name)
