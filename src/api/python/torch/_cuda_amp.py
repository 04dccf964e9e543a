"""``torch.cuda.amp``: PyTorch's older spellings of ``torch.amp`` for the GPU (amp/__init__ says
what they do here): ``autocast(enabled=True, dtype=torch.float16, cache_enabled=True)`` and
``GradScaler(init_scale=65536.0, …)``."""

from . import amp as _amp


class autocast(_amp.autocast):
    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_amp.GradScaler):
    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True):
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)
