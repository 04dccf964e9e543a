"""keras.losses: Keras 3's name for `tf.keras.losses` (the same objects), so
`from keras.losses import ...` works as `from tensorflow.keras.losses import ...` does."""

from tensorflow.keras import losses as _tf_keras_losses


def __getattr__(name):
    return getattr(_tf_keras_losses, name)
