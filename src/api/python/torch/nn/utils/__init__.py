"""``torch.nn.utils``: gradient clipping and parameters as one vector, computed by the engine
(``torch.nn.utils`` of the TS layer, src/engine/nn/grad-utils.ts): the total norm stays a device
tensor and gradients are scaled on the device, with no read-back per parameter."""

import warnings

from ... import _bridge as b
from ..._tensor import Tensor

_utils = b.host.torch.nn.utils

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]


def _tensors(parameters):
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scales the gradients in place so that their joint ``norm_type``-norm is at most
    ``max_norm``; returns the norm before scaling (a 0-d tensor). ``foreach`` is accepted (it
    picks PyTorch's kernels, not the result)."""
    return b.call(
        _utils.clipGradNorm_, _tensors(parameters), float(max_norm), float(norm_type), bool(error_if_nonfinite)
    )


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    warnings.warn(
        "torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_.",
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps the gradients in place to ``[-clip_value, clip_value]``."""
    b.call(_utils.clipGradValue_, _tensors(parameters), float(clip_value))


def parameters_to_vector(parameters):
    return b.call(_utils.parametersToVector, _tensors(parameters))


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    b.call(_utils.vectorToParameters, vec, _tensors(parameters))
