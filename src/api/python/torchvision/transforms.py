"""``torchvision.transforms``: ToTensor, Normalize and Compose are the TS layer's transforms, so
a dataset can apply them to all its images at once on load; any other callable in a Compose runs
per image in Python."""

from torch import _bridge as b

_t = b.host.transforms


class _Engine:
    """A transform the engine runs (``_js``); also callable on one image tensor from Python."""

    def __call__(self, image):
        return b.call(self._js, image)

    def _js_value(self):
        return self._js

    def __repr__(self):
        return f"{type(self).__name__}()"


class ToTensor(_Engine):
    def __init__(self):
        self._js = b.new(_t.ToTensor)


class Normalize(_Engine):
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std = mean, std
        self._js = b.new(_t.Normalize, mean, std)

    def __repr__(self):
        return f"Normalize(mean={self.mean}, std={self.std})"


class Compose:
    def __init__(self, transforms):
        self.transforms = list(transforms)

    @property
    def _engine(self):
        return all(isinstance(t, _Engine) for t in self.transforms)

    def _js_value(self):
        return b.new(_t.Compose, [t._js for t in self.transforms])

    def __call__(self, image):
        for t in self.transforms:
            image = t(image)
        return image

    def __repr__(self):
        body = "".join(f"\n    {t!r}" for t in self.transforms)
        return f"Compose({body}\n)"


class Lambda:
    def __init__(self, lambd):
        self.lambd = lambd

    def __call__(self, image):
        return self.lambd(image)


# torchvision's geometric transforms, composed of engine ops in Python (_geometric.py), and
# torchvision.transforms.functional (_functional.py). This module is not a package, so that submodule
# is entered in sys.modules by hand: `import torchvision.transforms.functional as TF` finds it.
import sys  # noqa: E402

from . import _functional as functional  # noqa: E402
from ._geometric import (  # noqa: E402, F401  re-exported
    CenterCrop,
    InterpolationMode,
    RandomCrop,
    RandomHorizontalFlip,
    RandomRotation,
    RandomVerticalFlip,
    Resize,
)

sys.modules[__name__ + ".functional"] = functional
