"""The program torch-indexing.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU): gather, scatter_add, index_select,
index_add, take_along_dim,
scatter, masked_fill, cumsum/cumprod, sort/argsort/topk, kthvalue, median, flip and roll in their ``torch.*`` and Tensor
forms, with PyTorch's arguments; values, indices and input gradients on the same random inputs,
and the reprs of ``torch.return_types``. It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``x``: distinct random values, ``weights``: the gradient's upstream
weights, ``gather`` (< 5), ``four`` (< 4), ``small`` (< 3): index lists, ``mask``, ``zeros``: 0/1 values) and ``DEVICE``
under ours. A test fixture, not an installed package.
"""

import torch
import torch.nn.functional as F

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def tensor(values, shape, **kwargs):
    return torch.tensor(values, device=DEVICE, **kwargs).reshape(shape)


def leaf(shape, start=0):
    n = 1
    for s in shape:
        n *= s
    return tensor(INPUT["x"][start : start + n], shape).requires_grad_()


def index(name, shape):
    n = 1
    for s in shape:
        n *= s
    return tensor(INPUT[name][:n], shape, dtype=torch.long)


def run(fn, *shapes):
    """fn's outputs for leaves of these shapes: values, indices and the leaves' gradients."""
    leaves = [leaf(shape, 7 * i) for i, shape in enumerate(shapes)]
    out = fn(*leaves)
    values, indices = (out.values, out.indices) if isinstance(out, tuple) else (out, None)
    flat = values.reshape(-1)
    (flat * tensor(INPUT["weights"][: flat.shape[0]], flat.shape)).sum().backward()
    return {
        "y": flat.detach().cpu().tolist(),
        "indices": None if indices is None else indices.reshape(-1).cpu().tolist(),
        "grads": [t.grad.reshape(-1).cpu().tolist() for t in leaves],
    }


CASES = {
    "Tensor.gather dim 1 (index smaller)": (lambda x: x.gather(1, index("gather", (2, 3, 4))), (3, 5, 4)),
    "torch.gather dim=-1": (lambda x: torch.gather(x, -1, index("four", (3, 7))), (3, 4)),
    "torch.scatter_add dim 0": (
        lambda x, src: torch.scatter_add(x, 0, index("four", (2, 3)), src),
        (4, 3),
        (2, 3),  # PyTorch 1.13's backward needs src of index's shape
    ),
    "Tensor.scatter_add dim 1": (lambda x, src: x.scatter_add(1, index("four", (2, 5)), src), (2, 4), (2, 5)),
    "torch.scatter (distinct indices)": (
        lambda x, src: torch.scatter(x, 1, torch.argsort(x.detach(), dim=1)[:, :2], src),
        (3, 4),
        (3, 2),
    ),
    "Tensor.scatter(value=)": (lambda x: x.scatter(0, torch.argsort(x.detach(), dim=0)[:1], value=-2.5), (3, 4)),
    "torch.index_select (repeats)": (lambda x: torch.index_select(x, 1, index("four", (6,))), (3, 4)),
    "Tensor.index_select dim 0": (lambda x: x.index_select(0, index("small", (5,))), (3, 4)),
    "Tensor.index_add (repeats, alpha)": (
        lambda x, src: x.index_add(1, index("four", (5,)), src, alpha=0.5),
        (3, 4),
        (3, 5),
    ),
    "torch.index_add dim 0": (lambda x, src: torch.index_add(x, 0, index("small", (4,)), src), (3, 4), (4, 4)),
    "torch.take_along_dim": (lambda x: torch.take_along_dim(x, torch.argsort(x.detach(), dim=1), dim=1), (3, 5)),
    "Tensor.take_along_dim (broadcast)": (lambda x: x.take_along_dim(index("four", (1, 3)), 1), (2, 4)),
    "take_along_dim flattened": (lambda x: torch.take_along_dim(x, index("gather", (4,))), (2, 3)),
    "Tensor.masked_fill (broadcast mask)": (
        lambda x: x.masked_fill(index("mask", (1, 4)).bool(), -1.5),
        (3, 4),
    ),
    "masked_fill -inf, softmax": (
        lambda x: F.softmax(torch.masked_fill(x, index("mask", (3, 4)) > 0, float("-inf")), dim=-1),
        (3, 4),
    ),
    "torch.cumsum dim 0": (lambda x: torch.cumsum(x, 0), (70, 2)),
    "Tensor.cumsum dim=-1": (lambda x: x.cumsum(dim=-1), (2, 3, 5)),
    "torch.cumprod dim 1": (lambda x: torch.cumprod(x, 1), (3, 6)),
    "torch.cumprod with zeros": (lambda x: torch.cumprod(x * index("zeros", (3, 6)), 1), (3, 6)),
    "Tensor.cumprod(dim=0) with zeros": (lambda x: x.mul(index("zeros", (6, 3))).cumprod(dim=0), (6, 3)),
    "torch.sort": (lambda x: torch.sort(x), (3, 9)),
    "Tensor.sort(dim=0, descending=True)": (lambda x: x.sort(dim=0, descending=True), (5, 3)),
    "torch.argsort": (lambda x: torch.argsort(x, dim=1).float() + x, (3, 9)),
    "torch.topk": (lambda x: torch.topk(x, 3), (4, 9)),
    "Tensor.topk(2, dim=0, largest=False)": (lambda x: x.topk(2, dim=0, largest=False), (6, 3)),
    "torch.kthvalue": (lambda x: torch.kthvalue(x, 3, dim=1), (3, 7)),
    "Tensor.median(dim=0, keepdim=True)": (lambda x: x.median(dim=0, keepdim=True), (5, 3)),
    "torch.median": (lambda x: torch.median(x), (4, 6)),
    "torch.flip": (lambda x: torch.flip(x, [0, 2]), (2, 3, 4)),
    "Tensor.flip(1)": (lambda x: x.flip(1), (2, 3, 4)),
    "torch.roll": (lambda x: torch.roll(x, shifts=(1, -2), dims=(0, 2)), (2, 3, 4)),
    "Tensor.roll flattened": (lambda x: x.roll(4), (2, 3)),
}


def in_place():
    """scatter_add_, masked_fill_, index_add_ and scatter_ (one-hot) on fresh tensors (values only:
    they are not leaves)."""
    src = tensor(INPUT["x"][:9], (3, 3))
    a = torch.zeros(4, 3, device=DEVICE).scatter_add_(0, index("four", (2, 3)), src)
    b = tensor(INPUT["x"][:12], (3, 4))
    b.masked_fill_(index("mask", (3, 4)).bool(), 2.0)
    b.index_add_(0, index("small", (2,)), torch.ones(2, 4, device=DEVICE))
    one_hot = torch.zeros(4, 5, device=DEVICE).scatter_(1, index("four", (4, 1)), 1.0)
    return a.reshape(-1).cpu().tolist() + b.reshape(-1).cpu().tolist() + one_hot.reshape(-1).cpu().tolist()


def arg_extremes():
    """argmax/argmin with dim (and keepdim), and max/min(dim)'s indices."""
    x = tensor(INPUT["x"][:20], (4, 5))
    return [
        torch.argmax(x, dim=1).cpu().tolist(),
        x.argmin(dim=0, keepdim=True).cpu().tolist(),
        x.argmax().cpu().tolist(),
        torch.max(x, 1).indices.cpu().tolist(),
        x.min(dim=0).indices.cpu().tolist(),
    ]


r = torch.tensor([3.0, 1.0, 2.0])
RESULT = {
    "cases": {name: run(fn, *shapes) for name, (fn, *shapes) in CASES.items()},
    "in_place": in_place(),
    "arg_extremes": arg_extremes(),
    "reprs": [
        repr(torch.sort(r)),
        repr(r.sort(descending=True)),
        repr(torch.topk(r, 2)),
        repr(torch.tensor([[1.0, 2.0], [3.0, 4.0]]).max(1)),
        repr(torch.tensor([[1.0, 2.0], [3.0, 4.0]]).min(dim=0)),
        repr(torch.kthvalue(r, 2)),
        repr(torch.median(r, 0)),
        type(torch.sort(r)).__name__,
        str(torch.sort(r).indices.dtype),
    ],
}
