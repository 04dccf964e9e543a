"""``t[...]`` and ``t[...] = v`` as PyTorch defines them, over the engine's views.

Basic indexing (ints, slices, None, ``...``) gives views (select, slice, unsqueeze), so gradients
flow and ``t[0] = 1`` writes into ``t``. One advanced index per expression is supported: an integer
tensor or list (index_select) or a bool mask (PyTorch's ``t[mask]``). A mask's positions depend on
its values, so it is read back first, as PyTorch itself must to know the result's shape.
"""

import builtins

from . import _bridge as b

_Tensor = b._tensor_type


def _expand(t, index):
    """The index as a tuple with ``...`` replaced by enough full slices."""
    if not isinstance(index, tuple):
        index = (index,)
    used = 0
    for item in index:
        if item is None or item is Ellipsis:
            continue
        if isinstance(item, _Tensor) and item._bool:
            used += item.ndim
        else:
            used += 1
    if used > t.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t.ndim}")
    out = []
    for item in index:
        if item is Ellipsis:
            out.extend([slice(None)] * (t.ndim - used))
            used = t.ndim
        else:
            out.append(item)
    return out


def _index_tensor(value, device):
    if isinstance(value, _Tensor):
        return value
    import torch

    return torch.tensor(value, device=device)


def getitem(t, index):
    dim = 0
    out = t
    advanced = None
    for item in _expand(t, index):
        if item is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(item, builtins.bool):
            raise IndexError("indexing with a Python bool is not supported")
        elif isinstance(item, builtins.int):
            size = out.shape[dim]
            if item < -size or item >= size:
                raise IndexError(f"index {item} is out of bounds for dimension {dim} with size {size}")
            out = out._op("select", dim, item)
        elif isinstance(item, slice):
            out = out._op("slice", dim, item.start, item.stop, item.step or 1)
            dim += 1
        elif isinstance(item, (_Tensor, list)):
            if advanced is not None:
                raise IndexError("only one tensor or list index per expression is supported")
            advanced = (dim, item)
            dim += item.ndim if isinstance(item, _Tensor) and item._bool else 1
        else:
            raise IndexError(f"unsupported index of type {type(item).__name__}")
    if advanced is None:
        return out
    at, item = advanced
    if isinstance(item, _Tensor) and item._bool:
        return _masked(out, at, item)
    idx = _index_tensor(item, out.device)
    picked = out._op("indexSelect", at, idx.reshape(-1))
    shape = list(out.shape[:at]) + list(idx.shape) + list(out.shape[at + 1 :])
    return picked.reshape(shape)


def _masked(t, at, mask):
    """``t[..., mask, ...]``: the mask's dims become one, holding the selected positions."""
    span = mask.ndim
    if tuple(t.shape[at : at + span]) != tuple(mask.shape):
        raise IndexError(
            f"The shape of the mask {list(mask.shape)} at index {at} does not match the shape "
            f"of the indexed tensor {list(t.shape)}"
        )
    flat = mask.reshape(-1).tolist()
    positions = [i for i, v in enumerate(flat) if v]
    import torch

    idx = torch.tensor(positions, dtype=torch.int64, device=t.device)
    merged = list(t.shape[:at]) + [-1 if len(flat) else 0] + list(t.shape[at + span :])
    return t.reshape(merged)._op("indexSelect", at, idx)


def setitem(t, index, value):
    if isinstance(index, _Tensor) and index._bool:
        # t[mask] = v: keep t where the mask is False, v where it is True.
        keep = (~index).to(t.dtype)
        if isinstance(value, _Tensor):
            raise IndexError("t[mask] = tensor is not supported: assign a number")
        t._op("mul_", keep)
        t._op("add_", index.to(t.dtype) * value)
        return
    view = getitem(t, index)
    if isinstance(value, _Tensor):
        view._op("copy_", value)
    else:
        view._op("fill_", value)
