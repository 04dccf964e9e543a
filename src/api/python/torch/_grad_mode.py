"""``torch.no_grad()`` as a context manager and as a decorator, over the engine's grad mode."""

import functools

from . import _bridge as b


class _GradMode:
    enabled = True

    def __enter__(self):
        self._previous = b.host.isGradEnabled()
        b.host.setGradEnabled(self.enabled)
        return None

    def __exit__(self, *exc):
        b.host.setGradEnabled(self._previous)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    enabled = False


class enable_grad(_GradMode):
    enabled = True


class inference_mode(no_grad):
    def __init__(self, mode=True):
        self.enabled = not mode


class set_grad_enabled(_GradMode):
    """``torch.set_grad_enabled(False)`` applies at once, and also works in a ``with``."""

    def __init__(self, mode):
        self.enabled = bool(mode)
        self._previous = b.host.isGradEnabled()
        b.host.setGradEnabled(self.enabled)

    def __enter__(self):
        return None


def is_grad_enabled():
    return bool(b.host.isGradEnabled())
