"""keras.metrics: Keras 3's name for `tf.keras.metrics` (the same objects), so
`from keras.metrics import ...` works as `from tensorflow.keras.metrics import ...` does."""

from tensorflow.keras import metrics as _tf_keras_metrics


def __getattr__(name):
    return getattr(_tf_keras_metrics, name)
