"""``torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)``: a context manager
(and decorator) that changes nothing, since every op already runs in float32 (amp/__init__)."""

import functools

_DEVICE_TYPES = ("cuda", "cpu", "mps", "xpu", "xla", "hpu", "ipu", "meta")


def is_autocast_available(device_type):
    """Whether ops on ``device_type`` are cast to a lower precision in an autocast block: never."""
    return False


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type not in _DEVICE_TYPES:
            raise RuntimeError(
                f"User specified an unsupported autocast device_type '{device_type}' "
                f"(expected one of {', '.join(_DEVICE_TYPES)})"
            )
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = bool(enabled)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return wrapped
