"""BatchNorm and InstanceNorm over the engine's layers, with one Python difference: PyTorch's
``momentum=None`` (a cumulative moving average) must reach the engine as ``null``, while a Python
``None`` argument means "not given" (the default 0.1) to the engine, so it is set afterwards."""

from .. import _bridge as b
from .layers import engine_module


def _momentum_none_is_null(name):
    base = engine_module(name)

    def __init__(self, *args, **kwargs):
        cumulative = (len(args) > 2 and args[2] is None) or ("momentum" in kwargs and kwargs["momentum"] is None)
        base.__init__(self, *args, **kwargs)
        if cumulative:
            self._js.momentum = b.jsnull

    return type(name, (base,), {"__init__": __init__, "__module__": "torch.nn"})


BatchNorm1d = _momentum_none_is_null("BatchNorm1d")
BatchNorm2d = _momentum_none_is_null("BatchNorm2d")
InstanceNorm1d = _momentum_none_is_null("InstanceNorm1d")
InstanceNorm2d = _momentum_none_is_null("InstanceNorm2d")
