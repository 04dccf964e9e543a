"""The program keras-recurrent.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): each case of INPUT builds SimpleRNN / LSTM / GRU / Bidirectional (after an
Embedding(mask_zero=True) or a Masking layer for the masked cases), sets the weights from INPUT, and reports the
outputs and GradientTape's gradients of sum(output * upstream) for the input (or the embedding
table) and every weight. keras_recurrent_reference.py computes the same in float64 NumPy.
A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


def make(spec):
    """A Keras layer from {"class", "args", "kwargs"}; Bidirectional wraps spec["layer"]."""
    cls = getattr(tf.keras.layers, spec["class"])
    if spec["class"] == "Bidirectional":
        return cls(make(spec["layer"]), **spec["kwargs"])
    return cls(*spec["args"], **spec["kwargs"])


def run(case):
    layer = make(case["layer"])
    upstream = [tf.constant(u) for u in case["upstream"]]
    if "ids" in case:
        embedding = tf.keras.layers.Embedding(case["vocab"], case["dim"], mask_zero=True)
        embedding.build((None, len(case["ids"][0])))
        embedding.set_weights([case["embeddings"]])
        source = tf.constant(case["ids"])
        watched = embedding.embeddings
    else:
        embedding = None
        source = tf.constant(case["x"])
        watched = source
    layer.build((None, *case["input_shape"]))
    layer.set_weights(case["weights"])
    kwargs = {}
    if "initial_state" in case:
        kwargs["initial_state"] = [tf.constant(s) for s in case["initial_state"]]
    with tf.GradientTape() as tape:
        tape.watch(watched)
        if embedding is not None:
            inputs = embedding(source)
        elif "mask_value" in case:
            inputs = tf.keras.layers.Masking(mask_value=case["mask_value"])(source)
        else:
            inputs = source
        out = layer(inputs, **kwargs)
        outs = out if isinstance(out, list) else [out]
        loss = tf.reduce_sum(outs[0] * upstream[0])
        for o, u in zip(outs[1:], upstream[1:], strict=True):
            loss = loss + tf.reduce_sum(o * u)
    grads = tape.gradient(loss, [watched, *layer.trainable_weights])
    return {
        "shapes": [list(o.shape) for o in outs],
        "y": [flat(o) for o in outs],
        "grads": [flat(g) for g in grads],
    }


with tf.device(DEVICE):
    RESULT = [run(case) for case in INPUT["cases"]]
