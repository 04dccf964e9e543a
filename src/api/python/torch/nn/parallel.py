"""``nn.DataParallel(module)``: PyTorch's wrapper, with ``.module`` and ``.device_ids``.

A Python-defined module runs its forward on the device of its parameters: the engine's
multi-device DataParallel (src/engine/parallel) replicates engine modules, and replicating a
Python ``forward`` on several logical GPUs is not done here yet. State dict keys carry the
``module.`` prefix, as in PyTorch."""

from .. import cuda
from .module import Module


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        if device_ids is None:
            device_ids = list(range(cuda.device_count()))
        self.device_ids = [d.index if hasattr(d, "index") else int(d) for d in device_ids]
        self.output_device = self.device_ids[0] if output_device is None and self.device_ids else output_device
        self.dim = dim
        # As PyTorch does: with one device the module is put there at once.
        if len(self.device_ids) == 1:
            module.to(f"cuda:{self.device_ids[0]}")

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
