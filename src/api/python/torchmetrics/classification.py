"""torchmetrics' ``Precision``, ``Recall`` and ``F1Score`` (``task='binary'`` or ``'multiclass'``,
``num_classes``, ``average`` 'micro' (default), 'macro', 'weighted' or 'none') and their task
classes (``MulticlassPrecision``, ``BinaryF1Score``, …), computed as torchmetrics 1.x does from
per-class counts of true positives, false positives and false negatives kept on the device:

- binary ``preds``: floats outside [0, 1] are logits (sigmoid first), then ``> threshold``;
  integer preds are labels. Multiclass ``preds``: ``[N, C]`` scores (argmax) or ``[N]`` labels.
- a score whose denominator is 0 is 0 (torchmetrics' ``zero_division=0``); 'macro' averages over
  the classes that occur in preds or target; 'weighted' weights each class by its support.
"""

import torch

from ._stat_metric import StatMetric

_AVERAGES = ("micro", "macro", "weighted", "none", None)


def _safe(num, den):
    # The counts are whole numbers, so a zero denominator comes with a zero numerator: dividing by
    # max(den, 1) gives torchmetrics' 0 there and the plain ratio elsewhere.
    return num / den.clamp(min=1.0)


class _Counts(StatMetric):
    _task = None
    _score = None  # "precision", "recall" or "f1"

    def __init__(self, num_classes=None, threshold=0.5, average="micro", ignore_index=None, validate_args=True, **kw):
        super().__init__()
        if ignore_index is not None:
            raise NotImplementedError(f"{type(self).__name__}: ignore_index is not supported yet")
        if self._task == "multiclass":
            if not isinstance(num_classes, int) or num_classes < 2:
                raise ValueError(
                    f"{type(self).__name__}: num_classes must be an integer larger than 1, got {num_classes!r}"
                )
            if average not in _AVERAGES:
                raise ValueError(f"{type(self).__name__}: average must be one of {_AVERAGES}, got {average!r}")
        self.num_classes = num_classes
        self.threshold = threshold
        self.average = average

    def _labels(self, preds, target):
        if self._task == "binary":
            if preds.dtype.is_floating_point:
                if bool(((preds < 0) | (preds > 1)).any()):
                    preds = preds.sigmoid()
                preds = preds > self.threshold
            if tuple(preds.shape) != tuple(target.shape):
                raise ValueError(
                    f"{type(self).__name__}: preds and target must have the same shape, got "
                    f"{tuple(preds.shape)} and {tuple(target.shape)}"
                )
            return preds.reshape(-1).long(), target.reshape(-1).long()
        if preds.dim() == target.dim() + 1:
            if preds.shape[1] != self.num_classes:
                raise ValueError(
                    f"{type(self).__name__}: preds of shape {tuple(preds.shape)} should have "
                    f"num_classes={self.num_classes} scores in dim 1"
                )
            preds = preds.argmax(1)
        elif tuple(preds.shape) != tuple(target.shape):
            raise ValueError(
                f"{type(self).__name__}: preds of shape {tuple(preds.shape)} do not match target of shape "
                f"{tuple(target.shape)} (labels of the same shape, or scores with classes in dim 1)"
            )
        return preds.reshape(-1).long(), target.reshape(-1).long()

    def _batch_state(self, preds, target):
        p, t = self._labels(preds, target)
        classes = torch.arange(1 if self._task == "binary" else self.num_classes, device=p.device)
        if self._task == "binary":
            classes = classes + 1  # the positive class
        hit_p = (p.reshape(-1, 1) == classes).float()
        hit_t = (t.reshape(-1, 1) == classes).float()
        return {
            "tp": (hit_p * hit_t).sum(0),
            "fp": (hit_p * (1 - hit_t)).sum(0),
            "fn": ((1 - hit_p) * hit_t).sum(0),
        }

    def _per_class(self, tp, fp, fn):
        if self._score == "precision":
            return _safe(tp, tp + fp)
        if self._score == "recall":
            return _safe(tp, tp + fn)
        return _safe(2 * tp, 2 * tp + fp + fn)

    def _value(self, state):
        tp, fp, fn = state["tp"], state["fp"], state["fn"]
        if self._task == "binary":
            return self._per_class(tp, fp, fn).reshape(())
        if self.average == "micro":
            return self._per_class(tp.sum(), fp.sum(), fn.sum())
        score = self._per_class(tp, fp, fn)
        if self.average in ("none", None):
            return score
        weights = tp + fn if self.average == "weighted" else (tp + fp + fn > 0).float()
        return _safe((weights * score).sum(), weights.sum())

    def __repr__(self):
        return f"{type(self).__name__}()"


def _task_class(name, task, score):
    return type(name, (_Counts,), {"_task": task, "_score": score, "__module__": __name__})


BinaryPrecision = _task_class("BinaryPrecision", "binary", "precision")
MulticlassPrecision = _task_class("MulticlassPrecision", "multiclass", "precision")
BinaryRecall = _task_class("BinaryRecall", "binary", "recall")
MulticlassRecall = _task_class("MulticlassRecall", "multiclass", "recall")
BinaryF1Score = _task_class("BinaryF1Score", "binary", "f1")
MulticlassF1Score = _task_class("MulticlassF1Score", "multiclass", "f1")


def _by_task(name, classes):
    def make(cls, task=None, threshold=0.5, num_classes=None, average="micro", **kwargs):
        if task not in classes:
            raise ValueError(f"{name}: task must be 'binary' or 'multiclass' here, got {task!r}")
        if task == "binary":
            return classes[task](threshold=threshold, **kwargs)
        return classes[task](num_classes=num_classes, average=average, **kwargs)

    return type(name, (), {"__new__": make, "__module__": __name__})


Precision = _by_task("Precision", {"binary": BinaryPrecision, "multiclass": MulticlassPrecision})
Recall = _by_task("Recall", {"binary": BinaryRecall, "multiclass": MulticlassRecall})
F1Score = _by_task("F1Score", {"binary": BinaryF1Score, "multiclass": MulticlassF1Score})
