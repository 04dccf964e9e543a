"""keras.datasets: Keras 3's name for `tf.keras.datasets` (the same objects), so
`from keras.datasets import ...` works as `from tensorflow.keras.datasets import ...` does."""

from tensorflow.keras import datasets as _tf_keras_datasets


def __getattr__(name):
    return getattr(_tf_keras_datasets, name)
