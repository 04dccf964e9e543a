"""``torch.*`` functions whose PyTorch form Python must shape: tuples (split and its kin,
var_mean), bool results (isclose), torch.where's one- and three-argument forms, nonzero and
masked_select (their sizes depend on the values, so they read them, as PyTorch synchronises),
logspace. The arithmetic is the engine's (src/engine/ops/masks.ts, split.ts, statistics.ts).
"""

import builtins

from . import _bridge as b

_t = b.host.torch


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None, layout=None):
    from ._tensor import _engine_dtype
    from ._types import bool as bool_dtype
    from ._types import device_arg

    t = b.call(_t.eye, n, m, dtype=_engine_dtype(dtype), device=device_arg(device), requires_grad=requires_grad or None)
    t._bool = dtype is bool_dtype
    return t


def empty_like(input, *, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None):
    """Zeros: the engine has no uninitialised memory to hand out."""
    import torch

    return torch.zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def unbind(input, dim=0):
    return input.unbind(dim)


def tensor_split(input, indices_or_sections, dim=0):
    return input.tensor_split(indices_or_sections, dim)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.isclose(other, rtol, atol, equal_nan)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(input.isclose(other, rtol, atol, equal_nan).all())


def _as_operand(value):
    """A Python bool as 0/1 (the engine has no bool scalars); tensors and numbers as they are."""
    return builtins.int(value) if isinstance(value, builtins.bool) else value


def where(condition, input=None, other=None):
    """``torch.where(c, x, y)``: x where c, else y (tensors or numbers, broadcast together);
    ``torch.where(c)``: ``c.nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("where() takes 1 or 3 arguments: where(condition) or where(condition, input, other)")
    out = b.call(_t.where, condition, _as_operand(input), _as_operand(other))
    if isinstance(input, builtins.float) or isinstance(other, builtins.float):
        # 2.0 reaches the engine as the number 2; PyTorch's result is float for a Python float.
        out = out.float()
    out._bool = _is_bool(input) and _is_bool(other)
    return out


def _is_bool(value):
    return isinstance(value, builtins.bool) or getattr(value, "_bool", False)


def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements, row-major: an [n, ndim] int64 tensor, or a tuple of
    ndim index vectors. Reads the values (the result's size depends on them)."""
    import torch

    shape = tuple(input.shape)
    flat = input.reshape(-1).tolist()
    rows = []
    for i, v in enumerate(flat):
        if v:
            index, rest = [], i
            for size in reversed(shape):
                index.append(rest % size)
                rest //= size
            rows.append(index[::-1])
    device = input.device
    if as_tuple:
        if not shape:  # PyTorch treats a 0-d input as 1-d here
            return (torch.tensor([0] * len(rows), dtype=torch.int64, device=device),)
        return tuple(torch.tensor([r[d] for r in rows], dtype=torch.int64, device=device) for d in range(len(shape)))
    if not rows:
        return torch.zeros(0, len(shape), dtype=torch.int64, device=device)
    return torch.tensor(rows, dtype=torch.int64, device=device).reshape(len(rows), len(shape))


def masked_select(input, mask):
    """The elements of input where mask is True, as a 1-D tensor (both broadcast first)."""
    shape = _broadcast(tuple(input.shape), tuple(mask.shape))
    values = input.expand(*shape).reshape(-1)
    keep = nonzero(mask.expand(*shape).reshape(-1), as_tuple=True)[0]
    return values.index_select(0, keep)


def _broadcast(a, b):
    n = builtins.max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"masked_select: shapes {list(a)} and {list(b)} do not broadcast")
    return tuple(builtins.max(x, y) if 0 not in (x, y) else 0 for x, y in zip(a, b))


def var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    return (
        input.var(dim, unbiased, keepdim, correction=correction),
        input.mean() if dim is None else input.mean(dim, keepdim=keepdim),
    )


def std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    return (
        input.std(dim, unbiased, keepdim, correction=correction),
        input.mean() if dim is None else input.mean(dim, keepdim=keepdim),
    )


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    import torch

    out = builtins.float(base) ** torch.linspace(start, end, steps, device=device)
    out = out.to(dtype) if dtype is not None else out
    return out.requires_grad_() if requires_grad else out
