"""``torch.backends.cudnn``: settable flags with PyTorch's defaults; no cuDNN here (WebGPU), so
``is_available()`` is False and ``version()`` None, as in PyTorch's CPU build. The flags change
nothing: the engine's kernels are deterministic and have no algorithm search (backends/__init__)."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True
benchmark_limit = 10


def is_available():
    return False


def version():
    return None
