"""The float64 reference of keras-training.test.ts for Keras's confusion metrics, run under
Debian's CPython with NumPy, written from TF 2.15's Keras: counts of true/false positives and
negatives per threshold (a prediction is positive when strictly above it, a label when non-zero),
AUC's thresholds and its Riemann sums or interpolated PR-AUC, and Precision/Recall with top_k and
class_id. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner
EPS = 1e-7


def arr(key):
    return np.array(INPUT[key], dtype=np.float64)


def div_no_nan(a, b):
    return np.where(b == 0, 0.0, a / np.where(b == 0, 1, b))


def counts(y, s, thresholds, w=None):
    """tp, fp, tn, fn per threshold over the flattened labels and scores (weighted)."""
    y, s = y.ravel(), s.ravel()
    w = np.ones_like(s)[:, None] if w is None else w.ravel()[:, None]
    pred = s[:, None] > np.array(thresholds)[None, :]
    pos = (y != 0)[:, None]
    return (
        ((pred & pos) * w).sum(0),
        ((pred & ~pos) * w).sum(0),
        ((~pred & ~pos) * w).sum(0),
        ((~pred & pos) * w).sum(0),
    )


def auc(y, s, num_thresholds=200, curve="ROC", summation="interpolation", w=None):
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    tp, fp, tn, fn = counts(y, s, [-EPS, *inner, 1 + EPS], w)
    if curve == "PR" and summation == "interpolation":
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = div_no_nan(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[:-1] > 0) & (p[1:] > 0), div_no_nan(p[:-1], np.maximum(p[1:], 0)), 1)
        return np.sum(div_no_nan(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0)))
    recall = div_no_nan(tp, tp + fn)
    x, yv = (div_no_nan(fp, fp + tn), recall) if curve == "ROC" else (recall, div_no_nan(tp, tp + fp))
    heights = {
        "interpolation": (yv[:-1] + yv[1:]) / 2,
        "minoring": np.minimum(yv[:-1], yv[1:]),
        "majoring": np.maximum(yv[:-1], yv[1:]),
    }[summation]
    return np.sum((x[:-1] - x[1:]) * heights)


def top_k(s, k):
    """Keras's _filter_top_k: all but the k largest of the last axis become -inf."""
    out = np.full_like(s, -np.inf)
    idx = np.argsort(-s, axis=-1, kind="stable")[..., :k]
    np.put_along_axis(out, idx, np.take_along_axis(s, idx, -1), -1)
    return out


def rate(kind, y, s, thresholds=None, k=None, class_id=None, w=None):
    if k is not None:
        s = top_k(s, k)
    if class_id is not None:
        y, s = y[..., class_id], s[..., class_id]
    if thresholds is None:
        thresholds = [0.5 if k is None else -np.inf]
    tp, fp, tn, fn = counts(y, s, thresholds, w)
    return div_no_nan(tp, tp + (fp if kind == "precision" else fn))


y, s, w = arr("y"), arr("s"), arr("w")
y4, s4 = arr("y4"), arr("s4")
CASES = {
    "auc_roc": auc(y, s),
    "auc_pr": auc(y, s, curve="PR"),
    "auc_roc_minoring_50": auc(y, s, 50, summation="minoring"),
    "auc_pr_majoring": auc(y, s, curve="PR", summation="majoring"),
    "auc_logits": auc(y, 1 / (1 + np.exp(-arr("logits")))),
    "auc_weighted": auc(y, s, w=w),
    "precision": rate("precision", y, s),
    "recall": rate("recall", y, s),
    "precision_thresholds": rate("precision", y, s, [0.3, 0.5, 0.7]),
    "recall_weighted": rate("recall", y, s, [0.4], w=w),
    "recall_top_k": rate("recall", y4, s4, k=2),
    "precision_top_k": rate("precision", y4, s4, k=1),
    "precision_class_id": rate("precision", y4, s4, class_id=1),
}
RESULT = {
    "metrics": {
        name: {"value": np.atleast_1d(v).tolist(), "after_reset": [0.0] * np.atleast_1d(v).size}
        for name, v in CASES.items()
    },
    "names": ["auc", "auc_1", "precision", "recall"],
}
