"""``torch.cuda``: the logical GPUs of the engine (WebGPU adapters) under PyTorch's names."""

import sys

from . import _bridge as b
from ._types import device_arg

_cuda = b.host.torch.cuda


def _dev(device):
    arg = device_arg(device)
    return None if arg is None else arg


def is_available():
    return bool(_cuda.isAvailable())


def device_count():
    return int(_cuda.deviceCount())


def current_device():
    return 0


def get_device_name(device=None):
    return b.call(_cuda.getDeviceName, _dev(device))


def empty_cache():
    _cuda.emptyCache()


def memory_allocated(device=None):
    return int(b.call(_cuda.memoryAllocated, _dev(device)))


def max_memory_allocated(device=None):
    return int(b.call(_cuda.maxMemoryAllocated, _dev(device)))


def memory_reserved(device=None):
    return int(b.call(_cuda.memoryReserved, _dev(device)))


def reset_peak_memory_stats(device=None):
    b.call(_cuda.resetPeakMemoryStats, _dev(device))


class _DeviceProperties:
    def __init__(self, name, total_memory):
        self.name = name
        self.total_memory = total_memory

    def __repr__(self):
        return f"_CudaDeviceProperties(name='{self.name}', total_memory={self.total_memory // 2**20}MB)"


def get_device_properties(device=None):
    props = b.call(_cuda.getDeviceProperties, _dev(device))
    return _DeviceProperties(props.name, int(props.totalMemory))


def synchronize(device=None):
    """Waits for all queued GPU work (the only place Python waits without reading values)."""
    b.wait(b.call(_cuda.synchronize, _dev(device)))


def manual_seed(seed):
    b.call(_cuda.manualSeed, int(seed))


manual_seed_all = manual_seed


# torch.cuda.amp (torch/_cuda_amp.py). This module is not a package, so the submodule is entered in
# sys.modules by hand: `import torch.cuda.amp` and `from torch.cuda.amp import GradScaler` find it.
from . import _cuda_amp as amp  # noqa: E402

sys.modules[__name__ + ".amp"] = amp
