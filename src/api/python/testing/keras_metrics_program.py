"""The program keras-training.test.ts runs under our ``tensorflow`` for Keras's confusion metrics
(AUC, Precision, Recall): each updated in two batches of the scores and labels in INPUT, then
read, then reset. keras_metrics_reference.py computes the same in float64 NumPy. A test fixture."""

import tensorflow as tf

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "/cpu:0")  # set by the test
m = tf.keras.metrics
tf.keras.backend.clear_session()  # metric names count from 'auc' again


def flat(t):
    """A tensor's values as a flat list of Python floats (with or without NumPy loaded)."""
    return [float(v) for v in tf.reshape(t, [-1]).numpy()]


# name: (metric, labels, scores, sample weights); mirrored in keras_metrics_reference.py.
CASES = {
    "auc_roc": (m.AUC(), "y", "s", None),
    "auc_pr": (m.AUC(curve="PR"), "y", "s", None),
    "auc_roc_minoring_50": (m.AUC(num_thresholds=50, summation_method="minoring"), "y", "s", None),
    "auc_pr_majoring": (m.AUC(curve="PR", summation_method="majoring"), "y", "s", None),
    "auc_logits": (m.AUC(from_logits=True), "y", "logits", None),
    "auc_weighted": (m.AUC(), "y", "s", "w"),
    "precision": (m.Precision(), "y", "s", None),
    "recall": (m.Recall(), "y", "s", None),
    "precision_thresholds": (m.Precision(thresholds=[0.3, 0.5, 0.7]), "y", "s", None),
    "recall_weighted": (m.Recall(thresholds=0.4), "y", "s", "w"),
    "recall_top_k": (m.Recall(top_k=2), "y4", "s4", None),
    "precision_top_k": (m.Precision(top_k=1), "y4", "s4", None),
    "precision_class_id": (m.Precision(class_id=1), "y4", "s4", None),
}


def run(metric, y_key, s_key, w_key):
    half = len(INPUT[y_key]) // 2
    for part in (slice(0, half), slice(half, None)):
        y = tf.constant(INPUT[y_key][part])
        s = tf.constant(INPUT[s_key][part])
        if w_key is None:
            metric.update_state(y, s)
        else:
            metric.update_state(y, s, sample_weight=tf.constant(INPUT[w_key][part]))
    value = flat(metric.result())
    metric.reset_state()
    return {"value": value, "after_reset": flat(metric.result())}


with tf.device(DEVICE):
    RESULT = {
        "metrics": {name: run(*case) for name, case in CASES.items()},
        "names": [CASES[k][0].name for k in ("auc_roc", "auc_pr", "precision", "recall")],
    }
