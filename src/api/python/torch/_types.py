"""torch.dtype, torch.device and torch.Size as PyTorch prints and compares them.

This module defines dtypes named ``float``, ``int`` and ``bool`` as PyTorch does, so Python's own
types are reached through ``builtins`` here.
"""

import builtins

from . import _bridge as b


class dtype:
    """A PyTorch dtype. ``engine`` is the engine's element type it is stored as (the bridge's
    dtype table, ``_bridge.DTYPES``, says which and why)."""

    __slots__ = ("name", "engine", "is_floating_point")

    def __init__(self, name, engine, is_floating_point):
        self.name = name
        self.engine = engine
        self.is_floating_point = is_floating_point

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_dtype_named, (self.name,))


_ALL = b.dtypes("torch", lambda row: dtype(row.name, row.engine, row.is_floating))
float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8, bool = _ALL.values()  # DTYPES's order
float = float32
double = float64
half = float16
long = int64
int = int32
short = int16


def _dtype_named(name):
    return _ALL[name]


def from_engine(name, is_bool=False):
    """The engine's int32 is shown as PyTorch's default integer type, int64 (see format.ts)."""
    if is_bool:
        return bool
    return float32 if name == "float32" else int64


class device:
    """``torch.device('cuda:0')``, ``torch.device('cuda', 1)``, ``torch.device('cpu')``."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        type = str(type)
        if ":" in type:
            type, _, number = type.partition(":")
            index = builtins.int(number)
        if type == "gpu":
            type = "cuda"
        if type not in ("cpu", "cuda"):
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {type}")
        self.type = type
        self.index = index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def _js_value(self):
        """The engine's spelling: cuda → gpu:0 (PyTorch's current device), cuda:N → gpu:N."""
        if self.type == "cpu":
            return "cpu"
        return f"gpu:{self.index or 0}"


def from_engine_device(name):
    if name.startswith("gpu:"):
        return device("cuda", builtins.int(name[4:]))
    return device("cpu")


def device_arg(value):
    """A device argument (str, int, torch.device) in the engine's spelling, or None."""
    if value is None:
        return None
    if isinstance(value, builtins.int) and not isinstance(value, builtins.bool):
        return f"gpu:{value}"
    return device(value)._js_value()


class Size(tuple):
    """``torch.Size([3, 4])``: a tuple of ints."""

    def __repr__(self):
        return f"torch.Size([{', '.join(str(d) for d in self)}])"

    __str__ = __repr__

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n
