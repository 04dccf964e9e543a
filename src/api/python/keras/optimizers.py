"""keras.optimizers: Keras 3's name for `tf.keras.optimizers` (the same objects), so
`from keras.optimizers import ...` works as `from tensorflow.keras.optimizers import ...` does."""

from tensorflow.keras import optimizers as _tf_keras_optimizers


def __getattr__(name):
    return getattr(_tf_keras_optimizers, name)
