"""The engine's normalisation layers with PyTorch's Python attributes: ``weight``/``bias`` and the
running-statistics buffers are None where the layer has none (no affine, no tracking);
``normalized_shape`` is a tuple; ``momentum``/``eps`` may be set after construction, reaching
the engine; an input of the wrong rank is PyTorch's ValueError. ``momentum=None`` (a cumulative
moving average) reaches the engine as ``null``: a Python ``None`` argument otherwise means "not
given" there (the default 0.1)."""

from .. import _bridge as b
from .layers import engine_module

_MAYBE_NONE = ("weight", "bias", "running_mean", "running_var", "num_batches_tracked")
_SETTABLE = ("momentum", "eps")


def _engine_value(value):
    return b.jsnull if value is None else value


def _norm_class(name, running, ranks=None):
    base = engine_module(name)

    def __getattr__(self, attr):
        try:
            value = base.__getattr__(self, attr)
        except AttributeError:
            if attr in _MAYBE_NONE:
                return None
            raise
        if attr == "normalized_shape":
            return tuple(value)
        return value

    members = {"__module__": "torch.nn", "__getattr__": __getattr__}
    if running:

        def __init__(self, *args, **kwargs):
            cumulative = (len(args) > 2 and args[2] is None) or ("momentum" in kwargs and kwargs["momentum"] is None)
            base.__init__(self, *args, **kwargs)
            if cumulative:
                self._js.momentum = b.jsnull

        def __setattr__(self, attr, value):
            if attr in _SETTABLE and "_js" in self.__dict__:
                setattr(self._js, attr, _engine_value(value))
            else:
                base.__setattr__(self, attr, value)

        def forward(self, input):
            if input.dim() not in ranks:
                expected = " or ".join(f"{r}D" for r in ranks)
                raise ValueError(f"expected {expected} input (got {input.dim()}D input)")
            return base.forward(self, input)

        members.update(__init__=__init__, __setattr__=__setattr__, forward=forward)
    return type(name, (base,), members)


LayerNorm = _norm_class("LayerNorm", False)
GroupNorm = _norm_class("GroupNorm", False)
BatchNorm1d = _norm_class("BatchNorm1d", True, (2, 3))
BatchNorm2d = _norm_class("BatchNorm2d", True, (4,))
BatchNorm3d = _norm_class("BatchNorm3d", True, (5,))
InstanceNorm1d = _norm_class("InstanceNorm1d", True, (2, 3))
InstanceNorm2d = _norm_class("InstanceNorm2d", True, (3, 4))
InstanceNorm3d = _norm_class("InstanceNorm3d", True, (4, 5))
