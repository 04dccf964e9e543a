"""``nn.Parameter``: an engine Parameter (persistent, requires grad), held but never disposed by Python."""

from .. import _bridge as b
from .._tensor import Tensor


class Parameter(Tensor):
    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            import torch

            data = torch.empty(0)
        js = b.new(b.host.torch.nn.Parameter, data, bool(requires_grad))
        return cls._wrap(js, False)

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        return Parameter(self.detach().clone(), self.requires_grad)


b._parameter_type = Parameter
