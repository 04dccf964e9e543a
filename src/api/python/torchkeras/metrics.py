"""``torchkeras.metrics.Accuracy``: torchkeras's metric for binary classification from logits —
``sigmoid(preds) > 0.5`` compared with ``targets``, counted over ``targets.shape[0]`` rows —
with ``forward`` (the batch's accuracy, accumulated), ``compute`` and ``reset``, as
``KerasModel(metrics_dict={'acc': Accuracy()})`` uses it. The counts stay on the device."""

import torch
from torchmetrics._stat_metric import StatMetric


class Accuracy(StatMetric):
    def _check(self, preds, targets):
        super()._check(preds, targets)
        if tuple(preds.shape) != tuple(targets.shape):
            raise ValueError(
                f"torchkeras.metrics.Accuracy: preds and targets must have the same shape (binary logits), "
                f"got {tuple(preds.shape)} and {tuple(targets.shape)}"
            )

    def _batch_state(self, preds, targets):
        hits = ((preds.sigmoid() > 0.5).float() == targets.float()).float().sum()
        return {"correct": hits, "total": torch.tensor(float(targets.shape[0]), device=hits.device)}

    def _value(self, state):
        return state["correct"] / state["total"]
