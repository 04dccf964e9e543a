"""A torchmetrics metric whose state is a few tensors kept on the device and updated with engine
ops (the classification counts, the regression sums): ``update``, ``compute`` (a 0-d tensor),
``reset``, calling (``metric(preds, target)`` updates and returns the batch's own value),
``to``/``cuda``/``cpu`` and ``deepcopy``. Unlike Accuracy and MeanMetric (engine metrics), their
``compute()`` does not feed the notebook's automatic loop chart."""

import copy

import torch


class StatMetric:
    def __init__(self):
        self._device = None
        self._state = None

    # Subclasses: _zero_state(device) -> dict of tensors, _batch_state(preds, target) -> dict of
    # tensors of the same keys, _value(state) -> tensor.

    def _check(self, preds, target):
        if not isinstance(preds, torch.Tensor) or not isinstance(target, torch.Tensor):
            raise TypeError(f"{type(self).__name__}: preds and target must be tensors")

    def update(self, preds, target):
        self._check(preds, target)
        with torch.no_grad():
            batch = self._batch_state(preds.detach(), target.detach())
            if self._state is None:
                self._state = batch
            else:
                self._state = {k: self._state[k] + batch[k] for k in self._state}

    def forward(self, preds, target):
        self._check(preds, target)
        with torch.no_grad():
            batch = self._batch_state(preds.detach(), target.detach())
            self._state = batch if self._state is None else {k: self._state[k] + batch[k] for k in self._state}
            return self._value(batch)

    __call__ = forward

    def compute(self):
        if self._state is None:
            raise RuntimeError(f"{type(self).__name__}.compute() was called before update()")
        with torch.no_grad():
            return self._value(self._state)

    def reset(self):
        self._state = None

    def to(self, device):
        self._device = torch.device(device)
        if self._state is not None:
            self._state = {k: v.to(self._device) for k, v in self._state.items()}
        return self

    def cuda(self, device=None):
        return self.to("cuda" if device is None else f"cuda:{device}")

    def cpu(self):
        return self.to("cpu")

    def __deepcopy__(self, memo):
        out = object.__new__(type(self))
        for k, v in self.__dict__.items():
            if k == "_state":
                v = None if v is None else {name: t.clone() for name, t in v.items()}
            else:
                v = copy.deepcopy(v, memo)
            out.__dict__[k] = v
        return out

    def __repr__(self):
        return f"{type(self).__name__}()"
