"""``torchvision`` over gpubook's TS torchvision: the bundled MNIST and FashionMNIST, the transforms and
untrained models."""

from . import datasets, models, transforms  # noqa: F401  re-exported

__version__ = "0.20.0+gpubook"
