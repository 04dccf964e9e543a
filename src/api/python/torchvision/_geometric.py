"""torchvision's geometric transforms over image tensors ``[..., H, W]`` (``[C, H, W]`` or a batch),
composed of engine ops, so they run on the image's device:

- ``RandomHorizontalFlip(p)`` / ``RandomVerticalFlip(p)``: ``torch.rand(1) < p``, then a flip.
- ``RandomCrop(size, padding, pad_if_needed, fill)``: constant padding, then a crop at
  ``torch.randint`` offsets. Randomness is the engine's stream, seeded by ``torch.manual_seed``
  (repeatable, though not PyTorch's own numbers).
- ``CenterCrop(size)``: torchvision's offsets (Python's ``round``), zero padding when larger.
- ``Resize(size, interpolation, max_size, antialias)``: bilinear (or nearest) resampling as two
  matrix products, ``R_h @ image @ R_wᵀ``, with PyTorch's ``interpolate`` weights (align_corners
  False; with ``antialias`` its anti-aliased triangle filter, which shrinking needs); an ``int``
  size matches the shorter edge.
- ``RandomRotation(degrees, interpolation, center, fill)``: torchvision's inverse affine matrix and
  sampling grid (``grid_sample``, align_corners False), read as index selections of the flattened
  image (one for nearest, four weighted ones for bilinear); pixels from outside are ``fill``.
"""

import enum
import math

import torch


class InterpolationMode(enum.Enum):
    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


def _image(name, img):
    if not isinstance(img, torch.Tensor) or img.dim() < 2:
        shape = tuple(img.shape) if isinstance(img, torch.Tensor) else type(img).__name__
        raise TypeError(f"{name}: expected an image tensor [..., H, W], got {shape}")
    return img


def _setup_size(name, size):
    if isinstance(size, int):
        return (size, size)
    if isinstance(size, (list, tuple)) and len(size) == 1:
        return (size[0], size[0])
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError(f"{name}: please provide only two dimensions (h, w) for size, got {size!r}")
    return tuple(size)


def _pad(img, left, top, right, bottom, fill=0):
    """Constant padding of the last two dims (cat with filled blocks)."""
    if left or right:
        rows = list(img.shape[:-1])
        parts = [torch.zeros(*rows, n, dtype=img.dtype, device=img.device) + fill for n in (left, right)]
        img = torch.cat([p for p, n in ((parts[0], left), (img, 1), (parts[1], right)) if n], -1)
    if top or bottom:
        lead, width = list(img.shape[:-2]), img.shape[-1]
        parts = [torch.zeros(*lead, n, width, dtype=img.dtype, device=img.device) + fill for n in (top, bottom)]
        img = torch.cat([p for p, n in ((parts[0], top), (img, 1), (parts[1], bottom)) if n], -2)
    return img


def _crop(img, top, left, height, width):
    return img[..., top : top + height, left : left + width]


class RandomHorizontalFlip:
    _dim = -1

    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, img):
        img = _image(type(self).__name__, img)
        if torch.rand(1) < self.p:
            return img.flip(self._dim)
        return img

    def __repr__(self):
        return f"{type(self).__name__}(p={self.p})"


class RandomVerticalFlip(RandomHorizontalFlip):
    _dim = -2


def _ltrb(padding):
    if isinstance(padding, int):
        return [padding] * 4
    padding = list(padding)
    if len(padding) == 1:
        return padding * 4
    if len(padding) == 2:
        return [padding[0], padding[1], padding[0], padding[1]]
    if len(padding) == 4:
        return padding
    raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")


class RandomCrop:
    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant"):
        self.size = _setup_size("RandomCrop", size)
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        if padding_mode != "constant":
            raise NotImplementedError(
                f"RandomCrop: padding_mode {padding_mode!r} is not supported here (only 'constant')"
            )
        self.padding_mode = padding_mode

    def __call__(self, img):
        img = _image("RandomCrop", img)
        if self.padding is not None:
            left, top, right, bottom = _ltrb(self.padding)
            img = _pad(img, left, top, right, bottom, self.fill)
        th, tw = self.size
        h, w = img.shape[-2], img.shape[-1]
        if self.pad_if_needed and w < tw:
            img = _pad(img, tw - w, 0, tw - w, 0, self.fill)
        if self.pad_if_needed and h < th:
            img = _pad(img, 0, th - h, 0, th - h, self.fill)
        h, w = img.shape[-2], img.shape[-1]
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: required crop size {(th, tw)} is larger than input image size {(h, w)}")
        if h == th and w == tw:
            return img
        i = int(torch.randint(0, h - th + 1, size=(1,)).item())
        j = int(torch.randint(0, w - tw + 1, size=(1,)).item())
        return _crop(img, i, j, th, tw)

    def __repr__(self):
        return f"RandomCrop(size={self.size}, padding={self.padding})"


class CenterCrop:
    def __init__(self, size):
        self.size = _setup_size("CenterCrop", size)

    def __call__(self, img):
        img = _image("CenterCrop", img)
        ch, cw = self.size
        h, w = img.shape[-2], img.shape[-1]
        if ch > h or cw > w:
            pads = [
                (cw - w) // 2 if cw > w else 0,
                (ch - h) // 2 if ch > h else 0,
                (cw - w + 1) // 2 if cw > w else 0,
                (ch - h + 1) // 2 if ch > h else 0,
            ]
            img = _pad(img, *pads)
            h, w = img.shape[-2], img.shape[-1]
            if ch == h and cw == w:
                return img
        return _crop(img, int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0)), ch, cw)

    def __repr__(self):
        return f"CenterCrop(size={self.size})"


def _resize_weights(n_in, n_out, mode, antialias):
    """The [n_out, n_in] matrix of PyTorch's interpolate along one dim (align_corners=False)."""
    scale = n_in / n_out
    rows = []
    for i in range(n_out):
        row = [0.0] * n_in
        if mode == "nearest":
            row[min(int(math.floor(i * scale)), n_in - 1)] = 1.0
        elif antialias:
            # PyTorch's _upsample_bilinear2d_aa: a triangle filter widened by the scale when shrinking.
            support = scale if scale >= 1.0 else 1.0
            invscale = 1.0 / scale if scale >= 1.0 else 1.0
            center = scale * (i + 0.5)
            xmin = max(int(center - support + 0.5), 0)
            xmax = min(int(center + support + 0.5), n_in)
            weights = [max(0.0, 1.0 - abs((j - center + 0.5) * invscale)) for j in range(xmin, xmax)]
            total = sum(weights)
            for j, wj in enumerate(weights):
                row[xmin + j] = wj / total if total else 0.0
        else:
            src = max(scale * (i + 0.5) - 0.5, 0.0)
            i0 = int(src)
            i1 = i0 + 1 if i0 < n_in - 1 else i0
            lam = src - i0
            row[i0] += 1.0 - lam
            row[i1] += lam
        rows.append(row)
    return rows


class Resize:
    def __init__(self, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
        if not isinstance(size, (int, list, tuple)) or (isinstance(size, (list, tuple)) and len(size) not in (1, 2)):
            raise TypeError(f"Resize: size should be an int or a sequence of one or two ints, got {size!r}")
        if isinstance(interpolation, str):
            interpolation = InterpolationMode(interpolation)
        if interpolation not in (InterpolationMode.BILINEAR, InterpolationMode.NEAREST):
            raise NotImplementedError(
                f"Resize: interpolation {interpolation.value} is not supported here (bilinear, nearest)"
            )
        self.size = size
        self.interpolation = interpolation
        self.max_size = max_size
        self.antialias = antialias

    def _output_size(self, h, w):
        size = self.size
        if isinstance(size, (list, tuple)) and len(size) == 2:
            return int(size[0]), int(size[1])
        requested = size if isinstance(size, int) else size[0]
        short, long = (w, h) if w <= h else (h, w)
        new_short, new_long = requested, int(requested * long / short)
        if self.max_size is not None and new_long > self.max_size:
            new_short, new_long = int(self.max_size * new_short / new_long), self.max_size
        return (new_long, new_short) if w <= h else (new_short, new_long)

    def __call__(self, img):
        img = _image("Resize", img)
        h, w = img.shape[-2], img.shape[-1]
        oh, ow = self._output_size(h, w)
        if (oh, ow) == (h, w):
            return img
        mode = self.interpolation.value
        antialias = bool(self.antialias) and mode == "bilinear"
        x = img if img.dtype.is_floating_point else img.float()
        rh = torch.tensor(_resize_weights(h, oh, mode, antialias), device=img.device)
        rw = torch.tensor(_resize_weights(w, ow, mode, antialias), device=img.device)
        out = torch.matmul(torch.matmul(rh, x), rw.t())
        if not img.dtype.is_floating_point:  # torchvision rounds integer images back
            out = out.round().clamp(0, 255).to(img.dtype)
        return out

    def __repr__(self):
        return (
            f"Resize(size={self.size}, interpolation={self.interpolation.value}, "
            f"max_size={self.max_size}, antialias={self.antialias})"
        )


def _rotation_matrix(angle, center):
    """torchvision's _get_inverse_affine_matrix(center, -angle, no translation, scale 1, no shear)."""
    rot = math.radians(-angle)
    a, b, c, d = math.cos(rot), -math.sin(rot), math.sin(rot), math.cos(rot)
    m = [d, -b, 0.0, -c, a, 0.0]
    cx, cy = center
    m[2] += m[0] * -cx + m[1] * -cy + cx
    m[5] += m[3] * -cx + m[4] * -cy + cy
    return m


def _rotate(img, angle, mode, center, fill):
    h, w = img.shape[-2], img.shape[-1]
    center = [0.0, 0.0] if center is None else [c - s * 0.5 for c, s in zip(center, (w, h), strict=True)]
    m = _rotation_matrix(angle, center)
    # Source pixel of each output pixel, as torchvision's affine grid and grid_sample place it: the
    # grid's normalised coordinate g maps to ((g + 1)·size − 1)/2, i.e. the matrix's x + (w − 1)/2.
    taps = []  # (index list, weight list) per corner
    coords = []
    for i in range(h):
        by = -h * 0.5 + 0.5 + i
        for j in range(w):
            bx = -w * 0.5 + 0.5 + j
            coords.append((bx * m[0] + by * m[1] + m[2] + (w - 1) / 2, bx * m[3] + by * m[4] + m[5] + (h - 1) / 2))
    corners = [(0, 0)] if mode == "nearest" else [(0, 0), (1, 0), (0, 1), (1, 1)]
    for dx, dy in corners:
        index, weight = [], []
        for x, y in coords:
            if mode == "nearest":
                px, py, wt = round(x), round(y), 1.0
            else:
                x0, y0 = math.floor(x), math.floor(y)
                px, py = x0 + dx, y0 + dy
                wt = (x - x0 if dx else 1 - (x - x0)) * (y - y0 if dy else 1 - (y - y0))
            inside = 0 <= px < w and 0 <= py < h
            index.append(py * w + px if inside else 0)
            weight.append(wt if inside else 0.0)
        taps.append((index, weight))
    flat = img.reshape(*img.shape[:-2], h * w)
    x = flat if flat.dtype.is_floating_point else flat.float()
    out, covered = None, None
    for index, weight in taps:
        wt = torch.tensor(weight, device=img.device)
        term = x.index_select(-1, torch.tensor(index, device=img.device)) * wt
        out = term if out is None else out + term
        covered = wt if covered is None else covered + wt
    # torchvision samples a ones mask beside the image and blends the fill in by it: bilinear
    # image·mask + (1 − mask)·fill (so edge pixels are weighted twice), nearest the fill where it is 0.
    if mode != "nearest":
        out = out * covered + (1 - covered) * fill
    elif fill:
        out = out + (covered < 0.5).float() * fill
    out = out.reshape(*img.shape[:-2], h, w)
    return out if img.dtype.is_floating_point else out.round().to(img.dtype)


class RandomRotation:
    def __init__(self, degrees, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=0):
        if isinstance(degrees, (int, float)):
            if degrees < 0:
                raise ValueError("If degrees is a single number, it must be positive.")
            degrees = [-degrees, degrees]
        elif not isinstance(degrees, (list, tuple)) or len(degrees) != 2:
            raise ValueError("If degrees is a sequence, it must be of len 2.")
        self.degrees = [float(d) for d in degrees]
        if isinstance(interpolation, str):
            interpolation = InterpolationMode(interpolation)
        if interpolation not in (InterpolationMode.NEAREST, InterpolationMode.BILINEAR):
            raise NotImplementedError(
                f"RandomRotation: interpolation {interpolation.value} is not supported here (nearest, bilinear)"
            )
        if expand:
            raise NotImplementedError("RandomRotation: expand=True is not supported here")
        if not isinstance(fill, (int, float)):
            raise NotImplementedError("RandomRotation: fill must be one number here")
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def __call__(self, img):
        img = _image("RandomRotation", img)
        low, high = self.degrees
        angle = float((torch.rand(1) * (high - low) + low).item())
        return _rotate(img, angle, self.interpolation.value, self.center, float(self.fill))

    def __repr__(self):
        center = f", center={self.center}" if self.center is not None else ""
        fill = f", fill={self.fill}" if self.fill is not None else ""
        return (
            f"RandomRotation(degrees={self.degrees}, interpolation={self.interpolation.value}, "
            f"expand={self.expand}{center}{fill})"
        )
