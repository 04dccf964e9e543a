"""``torchvision.models``: the small classics as torchvision defines them (same modules, names,
state-dict keys, parameter counts and initialisation), untrained. Pretrained weights cannot be
downloaded here: ``weights=`` other than None (or ``pretrained=True``) raises a RuntimeError
saying so (_weights.py)."""

from ._weights import (  # noqa: F401  re-exported
    MobileNet_V2_Weights,
    ResNet18_Weights,
    ResNet34_Weights,
    ResNet50_Weights,
    VGG11_BN_Weights,
    VGG11_Weights,
)
from .mobilenetv2 import InvertedResidual, MobileNetV2, mobilenet_v2  # noqa: F401  re-exported
from .resnet import BasicBlock, Bottleneck, ResNet, resnet18, resnet34, resnet50  # noqa: F401  re-exported
from .vgg import VGG, vgg11, vgg11_bn  # noqa: F401  re-exported
