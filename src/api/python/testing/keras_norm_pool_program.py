"""The program keras-norm-pool.test.ts runs under our ``tensorflow`` (Pyodide, on the CPU and on
WebGPU): Keras's normalisation, pooling and shaping layers from the weights and inputs in INPUT,
each output and GradientTape's gradients of ``sum(y * upstream)`` for the input and every
trainable weight; BatchNormalization also over two training steps (the moving statistics after
each) and then in inference. keras_norm_pool_reference.py computes the same in float64 NumPy.
A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test
layers = tf.keras.layers
RESULT = {}


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


def upstream(y):
    """The first elements of INPUT's upstream values, shaped like y."""
    n = 1
    for d in y.shape:
        n *= d
    return tf.reshape(tf.constant(INPUT["upstream"][:n]), y.shape)


def case(name, layer, x, weights=None, training=False):
    """Runs layer on x under a tape; records y and the gradients for x and the layer's trainable
    weights (set first from `weights`, in Keras's order)."""
    if weights is not None:
        layer.build((None, *tuple(x.shape)[1:]))
        layer.set_weights(weights)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=training)
        loss = tf.reduce_sum(y * upstream(y))
    grads = tape.gradient(loss, [x, *layer.trainable_weights])
    RESULT[f"{name}/y"] = flat(y)
    for i, g in enumerate(grads):
        RESULT[f"{name}/d{i}"] = flat(g)


with tf.device(DEVICE):
    x3 = tf.constant(INPUT["x3"])  # (2, 3, 4)
    x3b = tf.constant(INPUT["x3b"])
    seq = tf.constant(INPUT["seq"])  # (2, 6, 3)
    img = tf.constant(INPUT["img"])  # (2, 5, 5, 2)
    bn_weights = [INPUT["gamma4"], INPUT["beta4"], INPUT["mean4"], INPUT["var4"]]

    # BatchNormalization, defaults: two training steps, then inference.
    bn = layers.BatchNormalization()
    case("bn_step1", bn, x3, bn_weights, training=True)
    RESULT["bn_step1/moving"] = flat(bn.moving_mean) + flat(bn.moving_variance)
    case("bn_step2", bn, x3b, training=True)
    RESULT["bn_step2/moving"] = flat(bn.moving_mean) + flat(bn.moving_variance)
    case("bn_infer", bn, x3)
    RESULT["bn_infer/moving"] = flat(bn.moving_mean) + flat(bn.moving_variance)
    # Over a middle axis (the [A, C, B] view with B > 1), other momentum and epsilon.
    bn1 = layers.BatchNormalization(axis=1, momentum=0.8, epsilon=0.01)
    case("bn_axis1", bn1, x3, [INPUT["gamma3"], INPUT["beta3"], INPUT["mean3"], INPUT["var3"]], True)
    RESULT["bn_axis1/moving"] = flat(bn1.moving_mean) + flat(bn1.moving_variance)
    # Masked batch statistics: the steps an Embedding(mask_zero=True) masks are left out.
    emb = layers.Embedding(7, 4, mask_zero=True)
    emb.build((None, 5))
    emb.set_weights([INPUT["table"]])
    ids = tf.constant(INPUT["ids"], dtype=tf.int32)
    bnm = layers.BatchNormalization(momentum=0.5)
    bnm.build((None, 5, 4))
    bnm.set_weights(bn_weights)
    with tf.GradientTape() as tape:
        y = bnm(emb(ids), training=True)
        loss = tf.reduce_sum(y * upstream(y))
    RESULT["bn_masked/y"] = flat(y)
    grads = tape.gradient(loss, [emb.embeddings, bnm.gamma, bnm.beta])
    for i, g in enumerate(grads):
        RESULT[f"bn_masked/d{i}"] = flat(g)
    RESULT["bn_masked/moving"] = flat(bnm.moving_mean) + flat(bnm.moving_variance)

    case("ln", layers.LayerNormalization(), x3, [INPUT["gamma4"], INPUT["beta4"]])
    case("ln_axes12", layers.LayerNormalization(axis=[1, 2]), x3, [INPUT["gamma34"], INPUT["beta34"]])
    case("ln_axis1", layers.LayerNormalization(axis=1, epsilon=0.1), x3, [INPUT["gamma3"], INPUT["beta3"]])

    case("softmax", layers.Softmax(), x3)
    case("softmax_axis1", layers.Softmax(axis=1), x3)
    case("softmax_axes12", layers.Softmax(axis=[1, 2]), x3)
    case("reshape", layers.Reshape((4, -1)), x3)
    case("rescaling", layers.Rescaling(0.5, offset=-1.0), x3)

    case("avg1d", layers.AveragePooling1D(2), seq)
    case("avg1d_same", layers.AveragePooling1D(3, strides=2, padding="same"), seq)
    case("avg2d", layers.AveragePooling2D(2), img)
    case("avg2d_same", layers.AvgPool2D((2, 3), strides=(2, 2), padding="same"), img)
    case("gap1d", layers.GlobalAveragePooling1D(), seq)
    case("gap1d_keep", layers.GlobalAvgPool1D(keepdims=True), seq)
    case("gap2d", layers.GlobalAveragePooling2D(), img)
    case("gmp1d", layers.GlobalMaxPooling1D(), seq)
    case("gmp2d_keep", layers.GlobalMaxPool2D(keepdims=True), img)
    # GlobalAveragePooling1D's mean over the unmasked steps only.
    with tf.GradientTape() as tape:
        y = layers.GlobalAveragePooling1D()(emb(ids))
        loss = tf.reduce_sum(y * upstream(y))
    RESULT["gap1d_masked/y"] = flat(y)
    RESULT["gap1d_masked/d0"] = flat(tape.gradient(loss, emb.embeddings))
