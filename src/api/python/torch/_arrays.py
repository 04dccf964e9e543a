"""``torch.from_numpy``, and ``torch.tensor`` / ``torch.as_tensor`` of NumPy arrays and scalars, as
PyTorch's (torch/_numpy.py converts; the dtype kept is the array's, as PyTorch prints it)."""

from . import _numpy, _types
from . import _numpy_engine as engine
from ._tensor import Tensor


def _wrapped(handle, shared):
    t = Tensor._wrap(handle, True)
    t._np = shared
    t._bool = shared.dtype == "bool"
    return t


def from_numpy(ndarray):
    """A CPU tensor sharing ``ndarray``'s values (emulated: see torch/_numpy.py)."""
    handle, shared = _numpy.from_numpy(engine, ndarray)
    return _wrapped(handle, shared)


def _dtype_name(dtype):
    if isinstance(dtype, _types.dtype):
        return dtype.name
    name = str(dtype).removeprefix("torch.")
    if name not in _types._ALL:
        raise TypeError(f"unknown dtype {dtype!r}")
    return _types._ALL[name].name


def tensor(data, dtype=None, device=None, requires_grad=False):
    """``torch.tensor`` of an ndarray, a NumPy scalar or a list of ndarrays: a copy; None for
    any other data (the caller's own path)."""
    a = _numpy.as_array(data)
    if a is None and isinstance(data, (list, tuple)) and any(_numpy.is_ndarray(v) for v in data):
        a = _numpy.loaded().array(data)
    if a is None:
        return None
    _numpy.check_convertible(a)
    if dtype is not None:
        a = a.astype(_dtype_name(dtype))
    t = _wrapped(_numpy.to_engine(engine, a, _types.device_arg(device) or "cpu"), _numpy.Shared(a.dtype.name))
    if requires_grad:
        t.requires_grad_()
    return t


def as_tensor(data, dtype=None, device=None):
    """``torch.as_tensor``: shares a CPU ndarray's values when no conversion is asked for (as
    ``from_numpy``), returns a tensor itself when it already fits, else copies as ``torch.tensor``."""
    import torch

    if isinstance(data, Tensor):
        return data if dtype is None and device is None else data.to(device=device, dtype=dtype)
    same_dtype = dtype is None or (_numpy.is_ndarray(data) and _dtype_name(dtype) == data.dtype.name)
    on_cpu = device is None or _types.device_arg(device) == "cpu"
    if _numpy.is_ndarray(data) and same_dtype and on_cpu:
        return from_numpy(data)
    return torch.tensor(data, dtype=dtype, device=device)
