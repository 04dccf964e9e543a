"""``torchvision`` over gpubook's TS torchvision: the bundled MNIST and FashionMNIST and the transforms."""

from . import datasets, transforms  # noqa: F401  re-exported

__version__ = "0.20.0+gpubook"
