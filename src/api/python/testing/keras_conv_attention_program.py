"""The program keras-conv-attention.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and
on WebGPU): each case of INPUT["cases"] builds a Keras convolution variant or MultiHeadAttention,
sets its weights from INPUT, and records the output, the output shape Keras computes, and
GradientTape's gradients of sum(output * upstream) for the inputs and every trainable weight.
keras_conv_attention_reference.py computes the same in float64 NumPy. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


def upstream(shape):
    """A fixed, exactly representable upstream gradient of `shape` (the reference makes the same)."""
    n = 1
    for d in shape:
        n *= d
    return tf.reshape(tf.constant([((k * 7) % 11) / 5 - 1 for k in range(n)]), shape)


def batchless(shape):
    return [None] + list(shape)[1:]


def run_conv(case):
    layer = getattr(tf.keras.layers, case["layer"])(**case["kwargs"])
    x = tf.constant(case["x"])
    layer.build(batchless(x.shape))
    layer.set_weights(case["weights"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * upstream(list(y.shape)))
    grads = tape.gradient(loss, [x] + layer.trainable_weights)
    return {
        "y": flat(y),
        "shape": list(y.shape),
        "computed": list(layer.compute_output_shape(batchless(x.shape)))[1:],
        "grads": [flat(g) for g in grads],
    }


def run_attention(case):
    layer = tf.keras.layers.MultiHeadAttention(**case["kwargs"])
    query = tf.constant(case["query"])
    self_attention = "value" not in case
    value = query if self_attention else tf.constant(case["value"])
    key = tf.constant(case["key"]) if "key" in case else None
    layer.build(batchless(query.shape), batchless(value.shape), None if key is None else batchless(key.shape))
    layer.set_weights(case["weights"])
    options = {"return_attention_scores": True}
    if "mask" in case:
        options["attention_mask"] = tf.constant(case["mask"])
    if case.get("causal"):
        options["use_causal_mask"] = True
    if key is not None:
        options["key"] = key
    sources = [query] if self_attention else [query, value] + ([] if key is None else [key])
    with tf.GradientTape() as tape:
        for s in sources:
            tape.watch(s)
        y, scores = layer(query, value, **options)
        loss = tf.reduce_sum(y * upstream(list(y.shape)))
    grads = tape.gradient(loss, sources + layer.trainable_weights)
    return {
        "y": flat(y),
        "shape": list(y.shape),
        "computed": list(
            layer.compute_output_shape(
                batchless(query.shape), batchless(value.shape), None if key is None else batchless(key.shape)
            )
        )[1:],
        "scores": flat(scores),
        "scores_shape": list(scores.shape),
        "grads": [flat(g) for g in grads],
    }


with tf.device(DEVICE):
    RESULT = {
        "cases": [run_attention(c) if c["layer"] == "MultiHeadAttention" else run_conv(c) for c in INPUT["cases"]]
    }
