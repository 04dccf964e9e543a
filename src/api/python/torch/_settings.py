"""Process-wide settings a notebook's first cell makes: the default dtype, deterministic
algorithms, thread counts, print options, and ``torch.Generator``.

What each changes here (docs/python.md, "Notebook boilerplate"):
- ``set_default_dtype``: float32 and float64 are accepted, as in PyTorch; the engine stores every
  floating tensor as float32 (README "dtypes"), so float64 is remembered and answered by
  ``get_default_dtype`` but tensors stay float32.
- ``use_deterministic_algorithms``: remembered; the engine's kernels are deterministic already.
- ``set_num_threads``: remembered; the engine runs in the kernel's one worker thread (the CPU
  backend's loops, or WebGPU's queue), so it changes no speed.
- ``set_printoptions``: precision, threshold, edgeitems, linewidth and sci_mode of tensor reprs.
- ``Generator``: ``torch.manual_seed`` returns ``torch.default_generator``, which seeds the
  engine's one random stream; a ``torch.Generator()`` of one's own keeps its seed
  (``initial_seed()``), and functions taking ``generator=`` draw from the one seeded stream.
"""

import builtins
import math

from . import _bridge as b
from . import _types

_t = b.host.torch
_state = {"dtype": _types.float32, "deterministic": False, "warn_only": False, "threads": 1, "interop": 1}


def set_default_dtype(d):
    if not isinstance(d, _types.dtype) or d not in (_types.float32, _types.float64):
        if isinstance(d, _types.dtype) and d.is_floating_point:
            raise TypeError(f"set_default_dtype: {d} is not supported here: only torch.float32 and torch.float64")
        raise TypeError("only floating-point types are supported as the default type")
    _state["dtype"] = d


def get_default_dtype():
    return _state["dtype"]


def use_deterministic_algorithms(mode, *, warn_only=False):
    if not isinstance(mode, builtins.bool):
        raise TypeError(f"use_deterministic_algorithms(): argument 'mode' must be bool, not {type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, builtins.bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["warn_only"]


def _threads(name, n):
    if not isinstance(n, builtins.int) or isinstance(n, builtins.bool) or n < 1:
        raise RuntimeError(f"{name}: Number of threads must be positive, got {n!r}")
    return n


def set_num_threads(n):
    _state["threads"] = _threads("set_num_threads", n)


def get_num_threads():
    return _state["threads"]


def set_num_interop_threads(n):
    _state["interop"] = _threads("set_num_interop_threads", n)


def get_num_interop_threads():
    return _state["interop"]


_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """PyTorch's print options for tensor reprs (its ``set_printoptions``: a profile first, then
    each given option; ``sci_mode`` is always set, None meaning PyTorch's automatic choice)."""
    options = {}
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"set_printoptions: profile must be one of {list(_PROFILES)}, got {profile!r}")
        options.update(_PROFILES[profile])
    for name, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is not None:
            options[name] = value
    b.call(
        b.host.setPrintOptions,
        precision=options.get("precision"),
        threshold=options.get("threshold"),
        edgeItems=options.get("edgeitems"),
        lineWidth=options.get("linewidth"),
        sciMode=sci_mode,
    )


class Generator:
    """``torch.Generator(device='cpu')``: ``manual_seed`` (returns the generator), ``initial_seed``,
    ``seed``. The default generator is the engine's one random stream; see the module doc."""

    def __init__(self, device="cpu"):
        self.device = _types.device(device) if isinstance(device, str) else device
        self._seed = 67280421310721  # PyTorch's default seed
        self._engine = False

    def manual_seed(self, seed):
        seed = builtins.int(seed)
        if self._engine:
            b.call(_t.manualSeed, seed)
        self._seed = seed
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        import random

        return self.manual_seed(random.getrandbits(63)).initial_seed()

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"


default_generator = Generator()
default_generator._engine = True


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def is_autocast_enabled(device_type=None):
    """False: no op is ever cast to a lower precision here (torch/amp/__init__)."""
    return False


_MATMUL_PRECISIONS = ("highest", "high", "medium")
_state["matmul_precision"] = "highest"


def set_float32_matmul_precision(precision):
    """Remembered and answered; products always compute in full float32 here (no TF32)."""
    if precision not in _MATMUL_PRECISIONS:
        raise RuntimeError(f"set_float32_matmul_precision: expected one of {_MATMUL_PRECISIONS}, got {precision!r}")
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _state["matmul_precision"]


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, disable=False):
    """``torch.compile``: there is no graph compiler here, so the model (or function) is returned as
    it is and runs eagerly, op by op (the engine fuses element-wise chains by itself, docs/engine.md);
    results are what compiled code gives. Without a model, a decorator, as PyTorch's."""
    if model is None:
        return lambda fn: fn
    if not callable(model):
        raise RuntimeError(f"torch.compile: expected a Module or a function, got {type(model).__name__}")
    return model
