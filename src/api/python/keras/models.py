"""keras.models: Keras 3's name for `tf.keras.models` (the same objects), so
`from keras.models import ...` works as `from tensorflow.keras.models import ...` does."""

from tensorflow.keras import models as _tf_keras_models


def __getattr__(name):
    return getattr(_tf_keras_models, name)
