"""keras.utils: tf.keras.utils (tensorflow/keras/utils.py) with Keras 3's defaults where they
differ: ``plot_model`` leaves layer names out unless ``show_layer_names=True``."""

from tensorflow.keras import utils as _tf_utils


def plot_model(
    model,
    to_file="model.png",
    show_shapes=False,
    show_dtype=False,
    show_layer_names=False,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    show_layer_activations=False,
    show_trainable=False,
    **kwargs,
):
    return _tf_utils.plot_model(
        model,
        to_file=to_file,
        show_shapes=show_shapes,
        show_dtype=show_dtype,
        show_layer_names=show_layer_names,
        rankdir=rankdir,
        expand_nested=expand_nested,
        dpi=dpi,
        show_layer_activations=show_layer_activations,
        show_trainable=show_trainable,
    )


def __getattr__(name):
    return getattr(_tf_utils, name)
