"""torchmetrics' ``MeanAbsoluteError`` and ``MeanSquaredError(squared=True)`` (``squared=False``:
its square root), over all elements seen: the sum of errors and the count kept on the device."""

import torch

from ._stat_metric import StatMetric


class _ErrorSum(StatMetric):
    def _check(self, preds, target):
        super()._check(preds, target)
        if tuple(preds.shape) != tuple(target.shape):
            raise RuntimeError(
                f"{type(self).__name__}: preds and target must have the same shape, got "
                f"{tuple(preds.shape)} and {tuple(target.shape)}"
            )

    def _batch_state(self, preds, target):
        diff = preds.float() - target.float()
        n = torch.tensor(float(diff.numel()), device=diff.device)
        return {"sum": self._error(diff).sum(), "n": n}


class MeanAbsoluteError(_ErrorSum):
    def _error(self, diff):
        return diff.abs()

    def _value(self, state):
        return state["sum"] / state["n"]


class MeanSquaredError(_ErrorSum):
    def __init__(self, squared=True, num_outputs=1, **kwargs):
        super().__init__()
        if num_outputs != 1:
            raise NotImplementedError("MeanSquaredError: num_outputs other than 1 is not supported yet")
        self.squared = squared

    def _error(self, diff):
        return diff.square()

    def _value(self, state):
        mse = state["sum"] / state["n"]
        return mse if self.squared else mse.sqrt()
