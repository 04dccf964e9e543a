"""PyTorch's ``torch`` over gpubook's engine (WebGPU, or the CPU backend).

Names and signatures are PyTorch's; each call goes to the same torch-shaped TypeScript layer the
TypeScript cells use (src/api/torch.ts), so both languages compute with one engine. Functions not
written out here are the TS layer's, reached by their snake_case name (``torch.zeros_like`` is
``torch.zerosLike``).
"""

import builtins

from . import (
    _arrays,
    _out,
    accelerator,  # noqa: F401  torch.accelerator, re-exported
    cuda,  # noqa: F401  torch.cuda, re-exported
)
from . import _bridge as b
from ._grad_mode import (  # noqa: F401  re-exported: torch.no_grad, …
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from ._tensor import Tensor, _engine_dtype, _shape_args, return_types  # noqa: F401  re-exported
from ._types import (  # noqa: F401  re-exported: torch.float32, torch.Size, …
    Size,
    bfloat16,
    bool,
    double,
    float,
    float16,
    float32,
    float64,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    short,
    uint8,
)

# `x as x` re-exports these without a noqa, so the `device=` and `dtype=` parameters below do not
# read as redefining an unused import (F811).
from ._types import device as device
from ._types import device_arg as _device_arg
from ._types import dtype as dtype

__version__ = "2.5.0+gpubook"

_t = b.host.torch
FloatTensor = Tensor


def LongTensor(*args, device=None):
    """PyTorch's legacy ``torch.LongTensor([1, 2])``: int64 data (or a size)."""
    if len(args) == 1 and (isinstance(args[0], (list, tuple)) or _arrays._numpy.is_ndarray(args[0])):
        return tensor(args[0], dtype=int64, device=device)
    return zeros(*args, dtype=int64, device=device)


def _creation(dtype=None, device=None, requires_grad=False):
    return dict(
        dtype=_engine_dtype(dtype),
        device=_device_arg(device),
        requires_grad=requires_grad or None,
    )


def _marked(t, dtype):
    t._bool = dtype is bool
    return t


def _sized(name, size, dtype, device, requires_grad):
    shape = _shape_args(size)
    return _marked(b.call(getattr(_t, name), shape, **_creation(dtype, device, requires_grad)), dtype)


@_out.takes_out
def zeros(*size, dtype=None, device=None, requires_grad=False, layout=None):
    return _sized("zeros", size, dtype, device, requires_grad)


@_out.takes_out
def ones(*size, dtype=None, device=None, requires_grad=False, layout=None):
    return _sized("ones", size, dtype, device, requires_grad)


@_out.takes_out
def empty(*size, dtype=None, device=None, requires_grad=False, layout=None):
    return _sized("empty", size, dtype, device, requires_grad)


@_out.takes_out
def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    return _sized("rand", size, dtype, device, requires_grad)


@_out.takes_out
def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    return _sized("randn", size, dtype, device, requires_grad)


@_out.takes_out
def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    if dtype is None:  # PyTorch infers it from the fill value: bool, int64 or float32
        kind = builtins.bool if isinstance(fill_value, builtins.bool) else type(fill_value)
        dtype = {builtins.bool: bool, builtins.int: int64}.get(kind, float32)
    if isinstance(fill_value, builtins.bool):
        fill_value = builtins.int(fill_value)
    shape = _shape_args((size,))
    return _marked(b.call(_t.full, shape, fill_value, **_creation(dtype, device, requires_grad)), dtype)


def _like(name, input, dtype, device, requires_grad, *extra):
    o = _creation(dtype, device, requires_grad)
    return b.call(getattr(_t, name), input, *extra, **o)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False):
    return _like("zerosLike", input, dtype, device, requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False):
    return _like("onesLike", input, dtype, device, requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False):
    return _like("fullLike", input, dtype, device, requires_grad, fill_value)


def rand_like(input, *, dtype=None, device=None, requires_grad=False):
    return _like("randLike", input, dtype, device, requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False):
    return _like("randnLike", input, dtype, device, requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    size = None if size is None else _shape_args((size,))
    return b.call(_t.normal, mean, std, size, **_creation(dtype, device, requires_grad))


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    if dtype is None and any(isinstance(v, builtins.float) for v in (start, end, step)):
        dtype = float32  # 3. reaches the engine as the number 3: Python knows it is a float
    return b.call(_t.arange, start, end, step, **_creation(dtype, device, requires_grad))


def _infer_dtype(data):
    """PyTorch's inference for nested Python data: any float → float32, all bools → bool, else int64."""
    kinds = b.element_kinds(data, lambda t: "other" if t.dtype.is_floating_point else "int")
    if "other" in kinds:
        return float32
    if kinds == {"bool"}:
        return bool
    return int64


def _plain(data):
    """Nested lists of numbers (0-d tensors read, bools as 0/1)."""
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    if isinstance(data, Tensor):
        return data.tolist()
    if isinstance(data, builtins.bool):
        return builtins.int(data)
    return data


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    from_array = None if isinstance(data, Tensor) else _arrays.tensor(data, dtype, device, requires_grad)
    if from_array is not None:  # an ndarray or a NumPy scalar
        return from_array
    if isinstance(data, Tensor):
        out = b.call(_t.tensor, data, **_creation(dtype, device, requires_grad))
        return _marked(out, dtype if dtype is not None else (bool if data._bool else None))
    if dtype is None:
        dtype = _infer_dtype(data)
    return _marked(b.call(_t.tensor, _plain(data), **_creation(dtype, device, requires_grad)), dtype)


def as_tensor(data, dtype=None, device=None):
    return _arrays.as_tensor(data, dtype, device)


from_numpy = _arrays.from_numpy


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


def initial_seed():
    return _t.initialSeed()


def seed():
    return initial_seed()


# The notebook boilerplate's settings and backends (torch/_settings.py, backends/, version.py):
# each change documented there; manual_seed returns torch.default_generator, as PyTorch's does.
from . import amp, autograd, backends, version  # noqa: E402, F401  torch.amp, torch.autograd, …
from ._settings import (  # noqa: E402, F401  re-exported
    Generator,
    are_deterministic_algorithms_enabled,
    compile,
    default_generator,
    get_default_dtype,
    get_float32_matmul_precision,
    get_num_interop_threads,
    get_num_threads,
    is_autocast_enabled,
    is_deterministic_algorithms_warn_only_enabled,
    manual_seed,
    set_default_dtype,
    set_float32_matmul_precision,
    set_num_interop_threads,
    set_num_threads,
    set_printoptions,
    use_deterministic_algorithms,
)
from .amp import autocast  # noqa: E402, F401  re-exported


@_out.takes_out
def cat(tensors, dim=0):
    return b.call(_t.cat, list(tensors), dim)


concat = cat
concatenate = cat


@_out.takes_out
def stack(tensors, dim=0):
    return b.call(_t.stack, list(tensors), dim)


@_out.takes_out
def max(input, dim=None, keepdim=False):
    return input.max(dim, keepdim)


@_out.takes_out
def min(input, dim=None, keepdim=False):
    return input.min(dim, keepdim)


def _compare(name):
    def fn(input, other):
        return input._cmp(name, other)

    return _out.takes_out(fn, name)


eq = _compare("eq")
ne = _compare("ne")
lt = _compare("lt")
le = _compare("le")
gt = _compare("gt")
ge = _compare("ge")


# Compositions whose Python form needs shaping (tuples, bools, torch.where's forms): _functions.py.
from . import linalg  # noqa: E402, F401  torch.linalg
from ._functions import (  # noqa: E402, F401  re-exported
    allclose,
    chunk,
    empty_like,
    eye,
    isclose,
    logspace,
    masked_select,
    nonzero,
    split,
    std_mean,
    tensor_split,
    unbind,
    var_mean,
    where,
)


def save(obj, f, **kwargs):
    """``torch.save(obj, 'name.pt')``: kept in the browser's storage, as the TS layer does."""
    b.wait(b.call(_t.save, _state(obj), str(f)))


def load(f, map_location=None, weights_only=None, **kwargs):
    result = b.wait(b.call(_t.load, str(f), map_location=_device_arg(map_location)))
    return _from_saved(result)


def _state(obj):
    from collections import OrderedDict

    if isinstance(obj, (dict, OrderedDict)):
        return {k: _state(v) for k, v in obj.items()}
    return obj


def _from_saved(value):
    from collections import OrderedDict

    value = b.from_js(value) if isinstance(value, b.JsProxy) else value
    if isinstance(value, b.JsProxy):
        return OrderedDict((k, _from_saved(v)) for k, v in value.object_entries())
    return value


def __getattr__(name):
    fn = b.PYTORCH.function(_t, name)
    if fn is None:
        raise AttributeError(f"module 'torch' has no attribute '{name}'")
    # Kept as a module attribute: later reads skip this hook, the JS member read and the wrapper
    # (whose signature takes inspect ~0.1 ms), which every ``torch.add(…)`` paid.
    fn = globals()[name] = _out.takes_out(fn, name)
    return fn


from . import nn, optim, utils  # noqa: E402, F401

# ---------------------------------------------------------------------------------------------
# Functions PyTorch users write that the TS layer has no name for, composed of engine ops.


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    """Uniform integers in [low, high) from the engine's seeded generator (floor of a scaled
    uniform draw: seeded and repeatable, though not PyTorch's own random stream)."""
    if size is None:
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    u = rand(*_shape_args((size,)), device=device)
    return (u * (high - low) + low).floor().to(dtype or int64)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    from .utils.data.dataset import randperm as _randperm

    return tensor(_randperm(n), dtype=dtype or int64, device=device)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    if steps == 1:
        return tensor([builtins.float(start)], device=device)
    step = (end - start) / (steps - 1)
    out = arange(steps, device=device).float() * step + start
    return out.to(dtype) if dtype is not None else out


def var(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    return input.var(dim, unbiased, keepdim, correction=correction)


def std(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    return input.std(dim, unbiased, keepdim, correction=correction)


def equal(input, other):
    return tuple(input.shape) == tuple(other.shape) and builtins.bool((input == other).all())
