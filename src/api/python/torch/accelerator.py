"""``torch.accelerator`` (PyTorch 2.6+): the device-generic names for the current accelerator,
which in gpubook is WebGPU under PyTorch's ``cuda`` name (see :mod:`torch.cuda`).

Streams and choosing another current device (``set_device_index``, ``set_stream``) are not here:
the engine has one queue per device and ``cuda`` always means ``cuda:0``, as ``torch.cuda`` says.
"""

from . import cuda as _cuda
from ._types import device as _device


def device_count():
    """How many GPUs WebGPU gave us (0 without WebGPU)."""
    return _cuda.device_count()


def is_available():
    return _cuda.is_available()


def current_accelerator(check_available=False):
    """``torch.device('cuda')``, the accelerator gpubook is built for (its index is None, as in
    PyTorch); with ``check_available=True``, None when no GPU is there at run time."""
    if check_available and not is_available():
        return None
    return _device("cuda")


def current_device_index():
    return _cuda.current_device()


current_device_idx = current_device_index  # PyTorch's deprecated spelling


def synchronize(device=None):
    """Waits for the work queued on ``device`` (default: the current one)."""
    _cuda.synchronize(device)
