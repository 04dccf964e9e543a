"""keras.layers: Keras 3's name for `tf.keras.layers` (the same objects), so
`from keras.layers import ...` works as `from tensorflow.keras.layers import ...` does."""

from tensorflow.keras import layers as _tf_keras_layers


def __getattr__(name):
    return getattr(_tf_keras_layers, name)
