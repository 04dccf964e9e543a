"""``torchmetrics`` over the engine's metrics (state stays on the device; ``compute()`` is a
0-d tensor as in torchmetrics, read with ``.item()``)."""

import torch
from torch import _bridge as b

__version__ = "1.4.0+gpubook"

_m = b.host.torchmetrics


class Metric:
    _js_name = None

    def __init__(self, *args, **kwargs):
        self._args, self._kwargs = args, kwargs
        self._js = b.new(getattr(_m, self._js_name), *args, **kwargs)

    def __call__(self, *args):
        return b.call(self._js, *args)

    forward = __call__

    def update(self, *args):
        b.call(self._js.update, *args)

    def compute(self):
        # computeTensor (not resultTensor) tells the notebook's automatic loop chart of the read.
        return b.call(self._js.computeTensor)

    def reset(self):
        self._js.reset()

    def to(self, device):
        self._js.to(torch.device(device)._js_value())
        return self

    def cuda(self, device=None):
        return self.to("cuda" if device is None else f"cuda:{device}")

    def cpu(self):
        return self.to("cpu")

    def __deepcopy__(self, memo):
        copy = object.__new__(type(self))
        copy._args, copy._kwargs = self._args, self._kwargs
        copy._js = self._js.clone()
        return copy

    def __repr__(self):
        return f"{self._js_name}()"


class Accuracy(Metric):
    """``Accuracy(task='multiclass', num_classes=10)``, also ``task='binary'``."""

    _js_name = "Accuracy"


class MeanMetric(Metric):
    _js_name = "MeanMetric"


# torchmetrics' classification and regression metrics kept as device tensors in Python
# (classification.py, regression.py).
from .classification import (  # noqa: E402, F401  re-exported
    BinaryF1Score,
    BinaryPrecision,
    BinaryRecall,
    F1Score,
    MulticlassF1Score,
    MulticlassPrecision,
    MulticlassRecall,
    Precision,
    Recall,
)
from .regression import MeanAbsoluteError, MeanSquaredError  # noqa: E402, F401  re-exported
