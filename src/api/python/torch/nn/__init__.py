"""``torch.nn``: Python modules over the engine's layers (see module.py and layers.py)."""

from . import functional, init  # noqa: F401  re-exported
from .containers import ModuleDict, ModuleList, Sequential  # noqa: F401  re-exported
from .layers import (  # noqa: F401  re-exported
    AdaptiveMaxPool2d,
    Conv1d,
    Conv2d,
    CrossEntropyLoss,
    Dropout,
    Dropout2d,
    Embedding,
    Flatten,
    Identity,
    L1Loss,
    Linear,
    LogSoftmax,
    MaxPool1d,
    MaxPool2d,
    MSELoss,
    ReLU,
    Sigmoid,
    Softmax,
    Tanh,
)
from .module import Module  # noqa: F401  re-exported
from .parallel import DataParallel  # noqa: F401  re-exported
from .parameter import Parameter  # noqa: F401  re-exported
