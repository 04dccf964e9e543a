"""keras.callbacks: Keras 3's name for `tf.keras.callbacks` (the same objects), so
`from keras.callbacks import ...` works as `from tensorflow.keras.callbacks import ...` does."""

from tensorflow.keras import callbacks as _tf_keras_callbacks


def __getattr__(name):
    return getattr(_tf_keras_callbacks, name)
