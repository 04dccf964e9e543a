"""``torch.autograd``: the names notebooks use around ``loss.backward()`` — ``Variable`` (since
PyTorch 0.4 a tensor, as here), ``backward``, grad-mode switches, and ``set_detect_anomaly`` /
``detect_anomaly``, which are remembered and check nothing (the engine does not trace where a NaN
gradient came from). ``torch.autograd.grad`` (gradients returned instead of stored in ``.grad``)
is not available yet: it raises NotImplementedError."""

from .._grad_mode import enable_grad, no_grad, set_grad_enabled  # noqa: F401  re-exported

_anomaly = {"enabled": False, "check_nan": True}


def Variable(data, requires_grad=False, volatile=False):
    """PyTorch's old wrapper: returns the tensor itself, marked ``requires_grad`` when asked."""
    if requires_grad:
        data.requires_grad_(True)
    return data


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    if not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    elif not isinstance(grad_tensors, (list, tuple)):
        grad_tensors = [grad_tensors]
    for t, g in zip(tensors, grad_tensors, strict=True):
        t.backward(g, retain_graph=retain_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None):
    raise NotImplementedError(
        "torch.autograd.grad is not available here yet: call loss.backward() and read each input's .grad"
    )


def set_detect_anomaly(mode, check_nan=True):
    _anomaly["enabled"], _anomaly["check_nan"] = bool(mode), bool(check_nan)


def is_anomaly_enabled():
    return _anomaly["enabled"]


class detect_anomaly:
    def __init__(self, check_nan=True):
        self.check_nan = check_nan

    def __enter__(self):
        self._prev = _anomaly["enabled"]
        _anomaly["enabled"] = True

    def __exit__(self, *exc):
        _anomaly["enabled"] = self._prev
        return False
