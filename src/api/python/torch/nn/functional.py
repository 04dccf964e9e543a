"""``torch.nn.functional`` (F): the TS layer's functional forms, found by PyTorch's names (``mse_loss`` is
``mseLoss``); written out here only where PyTorch's defaults or arguments differ from the TS layer's."""

from .. import _bridge as b

_f = b.host.torch.nn.functional


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return b.call(_f.softmax, input, -1 if dim is None else dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return b.call(_f.logSoftmax, input, -1 if dim is None else dim)


def one_hot(tensor, num_classes=-1):
    # The engine infers num_classes only where it can read the values at once (the cpu).
    if num_classes == -1 and tensor.numel() > 0:
        num_classes = int(tensor.max().item()) + 1
    return b.call(_f.oneHot, tensor, num_classes)


def __getattr__(name):
    fn = b.PYTORCH.function(_f, name)
    if fn is None:
        raise AttributeError(f"module 'torch.nn.functional' has no attribute '{name}'")
    globals()[name] = fn  # later reads are plain module attributes (as torch's, torch/__init__.py)
    return fn
