"""``torch.nn``: Python modules over the engine's layers (see module.py and layers.py). The engine's
module classes (Linear, Conv2d, ReLU, Sigmoid, …) are found by name, not listed here."""

from . import (  # noqa: F401  re-exported
    functional,
    init,
    utils,  # noqa: F401  torch.nn.utils (area F)
)
from .containers import ModuleDict, ModuleList, Sequential  # noqa: F401  re-exported
from .layers import Identity, LogSoftmax  # noqa: F401  re-exported
from .layers import engine_module as _engine_module
from .layers import engine_module_names as _engine_module_names
from .module import Module  # noqa: F401  re-exported
from .norm import (  # noqa: F401  re-exported
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LayerNorm,
)
from .parallel import DataParallel  # noqa: F401  re-exported
from .parameter import Parameter  # noqa: F401  re-exported
from .transformer import Transformer  # noqa: F401  re-exported


def __getattr__(name):
    cls = None if name.startswith("_") else _engine_module(name)
    if cls is None:
        raise AttributeError(f"module 'torch.nn' has no attribute '{name}'")
    return cls


def __dir__():
    return sorted(set(globals()) | set(_engine_module_names()))
