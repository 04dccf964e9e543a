"""keras.random: Keras 3's random draws over ``tf.random`` (the engine's generator). ``seed``
arguments and ``SeedGenerator`` are accepted, but every draw comes from the global generator:
``keras.utils.set_random_seed`` makes a run repeat, while Keras's per-call seeds (the same
numbers each time a seed is given) are not reproduced."""


def _tf():
    import tensorflow

    return tensorflow


class SeedGenerator:
    def __init__(self, seed=None, name=None, **kwargs):
        self.seed = seed


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf().random.normal(tuple(shape), mean=mean, stddev=stddev, dtype=dtype or "float32")


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return _tf().random.uniform(tuple(shape), minval=minval, maxval=maxval, dtype=dtype or "float32")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf().random.truncated_normal(tuple(shape), mean=mean, stddev=stddev, dtype=dtype or "float32")


def randint(shape, minval, maxval, dtype="int32", seed=None):
    return _tf().random.uniform(tuple(shape), minval=minval, maxval=maxval, dtype=dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    return _tf().nn.dropout(inputs, rate=rate, noise_shape=noise_shape)
