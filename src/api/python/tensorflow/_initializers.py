"""TensorFlow 2's initializer classes (``tf.random_normal_initializer``, ``tf.zeros_initializer``,
…), as TensorFlow's Keras guide uses them to make ``tf.Variable`` weights in a layer's
``__init__``: each instance is called with ``(shape, dtype)`` and draws from ``tf.random`` (seeded
by ``tf.random.set_seed``); ``seed`` is accepted and not used. Nothing is computed here."""


class _Initializer:
    def __call__(self, shape, dtype=None, **kwargs):
        import tensorflow as tf

        return self._make(tf, [int(d) for d in shape], tf.float32 if dtype is None else dtype)

    def get_config(self):
        return dict(self.__dict__)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class random_normal_initializer(_Initializer):  # noqa: N801  TensorFlow's name
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, tf, shape, dtype):
        return tf.random.normal(shape, self.mean, self.stddev, dtype=dtype)


class random_uniform_initializer(_Initializer):  # noqa: N801  TensorFlow's name
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def _make(self, tf, shape, dtype):
        return tf.random.uniform(shape, self.minval, self.maxval, dtype=dtype)


class zeros_initializer(_Initializer):  # noqa: N801  TensorFlow's name
    def _make(self, tf, shape, dtype):
        return tf.zeros(shape, dtype=dtype)


class ones_initializer(_Initializer):  # noqa: N801  TensorFlow's name
    def _make(self, tf, shape, dtype):
        return tf.ones(shape, dtype=dtype)


class constant_initializer(_Initializer):  # noqa: N801  TensorFlow's name
    def __init__(self, value=0):
        self.value = value

    def _make(self, tf, shape, dtype):
        if isinstance(self.value, (int, float)):
            return tf.ones(shape, dtype=dtype) * self.value
        return tf.reshape(tf.constant(self.value, dtype=dtype), shape)
