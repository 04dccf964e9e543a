"""The weights enums' names (``ResNet18_Weights.DEFAULT``, …) and the one check every builder makes:
gpubook has no network access to download.pytorch.org, so only untrained models can be built."""

import enum


def _enum(name):
    return enum.Enum(name, {"IMAGENET1K_V1": f"{name}.IMAGENET1K_V1", "DEFAULT": f"{name}.DEFAULT"})


ResNet18_Weights = _enum("ResNet18_Weights")
ResNet34_Weights = _enum("ResNet34_Weights")
ResNet50_Weights = _enum("ResNet50_Weights")
VGG11_Weights = _enum("VGG11_Weights")
VGG11_BN_Weights = _enum("VGG11_BN_Weights")
MobileNet_V2_Weights = _enum("MobileNet_V2_Weights")


def no_weights(builder, weights, kwargs):
    """Raises unless the model is to be untrained; drops the legacy ``pretrained``/``progress``."""
    pretrained = kwargs.pop("pretrained", False)
    kwargs.pop("progress", None)
    if weights is not None or pretrained:
        what = f"weights={weights}" if weights is not None else "pretrained=True"
        raise RuntimeError(
            f"{builder}({what}): pretrained weights cannot be downloaded here (gpubook runs without "
            f"access to download.pytorch.org); build it untrained with {builder}(weights=None) and train it, "
            "or load your own state dict with load_state_dict"
        )
