"""``torchvision.transforms.functional`` (``TF``): the geometric transforms' deterministic forms over
image tensors, as _geometric.py computes them (``hflip``, ``vflip``, ``crop``, ``center_crop``,
``pad`` (constant), ``resize``, ``rotate``)."""

from . import _geometric as g
from ._geometric import InterpolationMode


def hflip(img):
    return g._image("hflip", img).flip(-1)


def vflip(img):
    return g._image("vflip", img).flip(-2)


def crop(img, top, left, height, width):
    return g._crop(g._image("crop", img), top, left, height, width)


def center_crop(img, output_size):
    return g.CenterCrop(output_size)(img)


def pad(img, padding, fill=0, padding_mode="constant"):
    if padding_mode != "constant":
        raise NotImplementedError(f"pad: padding_mode {padding_mode!r} is not supported here (only 'constant')")
    left, top, right, bottom = g._ltrb(padding)
    return g._pad(g._image("pad", img), left, top, right, bottom, fill)


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
    return g.Resize(size, interpolation, max_size, antialias)(img)


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=None):
    if expand:
        raise NotImplementedError("rotate: expand=True is not supported here")
    if isinstance(interpolation, str):
        interpolation = InterpolationMode(interpolation)
    if isinstance(fill, (list, tuple)):
        if len(set(fill)) > 1:
            raise NotImplementedError("rotate: one fill value for all channels here")
        fill = fill[0]
    return g._rotate(g._image("rotate", img), float(angle), interpolation.value, center, float(fill or 0))
