"""A short fit under our ``tensorflow`` with the learning-rate callbacks, as a notebook writes it:
ReduceLROnPlateau on a plateau (noise targets; a min_delta no epoch can beat), a one-argument
LearningRateScheduler function, TensorBoard, and AUC/Precision/Recall by name in compile. The
history (with TF 2.15's ``lr`` key) is checked by keras-training.test.ts. A test fixture."""

import tensorflow as tf
from tensorflow.keras.optimizers.schedules import CosineDecay

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test


def fit(callbacks, epochs):
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
    model.compile(
        optimizer=tf.keras.optimizers.SGD(0.1),
        loss="binary_crossentropy",
        metrics=["AUC", "precision", tf.keras.metrics.Recall(thresholds=0.4)],
    )
    x = tf.constant(INPUT["x"])
    y = tf.constant(INPUT["y"])
    history = model.fit(x, y, epochs=epochs, batch_size=16, verbose=0, callbacks=callbacks)
    return {key: [float(v) for v in values] for key, values in history.history.items()}


with tf.device(DEVICE):
    plateau = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2, min_delta=10)
    board = tf.keras.callbacks.TensorBoard(log_dir="logs/fit")
    scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.2 * 0.5**epoch)
    RESULT = {
        "plateau": fit([plateau, board], 5),
        "scheduler": fit([scheduler], 3),
        "log_dir": board.log_dir,
        "cosine": [float(CosineDecay(0.1, 10)(step)) for step in (0, 5, 10)],
    }
