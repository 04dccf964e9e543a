"""PyTorch's ``out=`` argument: ``torch.matmul(a, b, out=y)`` computes as usual, writes the result
into ``y`` (so views of ``y`` see it) and returns ``y`` itself.

PyTorch's rules, kept here: ``out`` must be a Tensor; no argument may require grad while grad mode
is on (out= results have no autograd history); the result's dtype must be castable to ``out``'s
(float → integer or bool, integer → bool are refused); an ``out`` of another shape is resized, with
PyTorch's deprecation warning unless it had no elements. The engine cannot resize a tensor in
place, so a resized ``out`` takes the result's storage (earlier views of it no longer alias it).
"""

import inspect
import warnings

from . import _bridge as b
from ._grad_mode import is_grad_enabled

_ORDER = {"bool": 0, "int": 1, "float": 2}
_SCALAR_NAMES = {"bool": "Bool", "int64": "Long", "float32": "Float"}


def _kind(t):
    if t.dtype.name == "bool":
        return "bool"
    return "float" if t.dtype.is_floating_point else "int"


def _tensors(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _tensors(v)
        elif isinstance(v, b._tensor_type):
            yield v


def _matmul_kernel(a, b):
    """The ATen op ``torch.matmul`` runs for these operand ranks (its name is in the messages)."""
    if a.ndim == 1 and b.ndim == 1:
        return "dot"
    if b.ndim == 1 or (a.ndim == 1 and b.ndim >= 3):
        return "mv"
    return "bmm" if a.ndim >= 3 and b.ndim >= 3 else "mm"


def check(name, out, args):
    """Before computing ``name(*args, out=out)``: PyTorch's argument checks."""
    if name == "matmul" and len(args) == 2 and all(isinstance(a, b._tensor_type) for a in args):
        name = _matmul_kernel(*args)
    outs = out if isinstance(out, tuple) else (out,)
    for o in outs:
        if not isinstance(o, b._tensor_type):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(o).__name__}")
    if is_grad_enabled() and any(t.requires_grad for t in _tensors((*args, *outs))):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )


def write(out, result):
    """Writes ``result`` into ``out`` (a Tensor, or a tuple for ops returning several); returns ``out``."""
    if isinstance(out, tuple):
        if not isinstance(result, tuple) or len(result) != len(out):
            raise TypeError(f"out= expects {len(result) if isinstance(result, tuple) else 1} tensors")
        for o, r in zip(out, result):
            write(o, r)
        return out
    source, target = _kind(result), _kind(out)
    if _ORDER[source] > _ORDER[target]:
        raise RuntimeError(
            f"result type {_SCALAR_NAMES[result.dtype.name]} can't be cast to the desired output type "
            f"{_SCALAR_NAMES[out.dtype.name]}"
        )
    if result.device != out.device:
        raise RuntimeError(f"Expected out tensor to have device {result.device}, but got {out.device} instead")
    if source != target:
        result = result.to(out.dtype)
    if tuple(out.shape) != tuple(result.shape):
        if out.numel() != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape {list(out.shape)}, "
                f"which does not match the required output shape {list(result.shape)}. This behavior is "
                "deprecated, and in a future PyTorch release outputs will not be resized unless they have "
                "zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                "elements with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        # Take over the result's engine tensor (and its wrapper's hold on it).
        b.host.release(out._js)
        out._js, result._js = result._js, None
        out._bool = result._bool
        return out
    b.call(out._js.copy_, result)
    return out


def takes_out(fn, name=None):
    """``fn`` taking PyTorch's keyword ``out=`` as well (a decorator; ``name`` for messages)."""
    name = name or fn.__name__

    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        check(name, out, (*args, *kwargs.values()))
        return write(out, fn(*args, **kwargs))

    wrapper.__name__ = name
    wrapper.__qualname__ = name
    wrapper.__doc__ = fn.__doc__
    wrapper.__signature__ = _with_out(fn)  # what help() and the editor's hovers show
    return wrapper


def _with_out(fn):
    """``fn``'s signature with PyTorch's keyword-only ``out=None`` added."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
    params.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    return sig.replace(parameters=params)
