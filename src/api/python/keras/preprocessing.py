"""keras.preprocessing: Keras 3's name for `tf.keras.preprocessing` (the same objects), so
`from keras.preprocessing import ...` works as `from tensorflow.keras.preprocessing import ...` does."""

from tensorflow.keras import preprocessing as _tf_keras_preprocessing


def __getattr__(name):
    return getattr(_tf_keras_preprocessing, name)
