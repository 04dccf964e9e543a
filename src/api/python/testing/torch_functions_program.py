"""The program torch-functions.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU): tensor creation (eye, arange, full,
tensor's dtype inference, linspace, logspace), masks (tril/triu, where, diag, trace), splits and
repeats, einsum and outer, statistics (logsumexp, norms, var/std), comparisons (isclose,
allclose), in-place updates and grad modes. Each case records its values, dtypes, shapes and the
gradients of its inputs; it leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``x``: random values, ``w``: the upstream weights of the gradient)
and ``DEVICE`` under ours. A test fixture, not an installed package.
"""

import math

import torch

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch
INF = float("inf")


def plain(v):
    """JSON-safe numbers: infinities and NaN as strings."""
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def flat(t):
    return plain(t.detach().reshape(-1).cpu().tolist())


def data(*shape, offset=0, scale=1.0):
    n = math.prod(shape)
    values = [v * scale for v in INPUT["x"][offset : offset + n]]
    return torch.tensor(values, device=DEVICE).reshape(*shape)


def record(out, inputs):
    """Values, shapes and dtypes of out (a tensor or a tuple of them) and the inputs' gradients of
    sum(out · w)."""
    parts = list(out) if isinstance(out, (tuple, list)) else [out]
    result = {
        "y": [flat(p) for p in parts],
        "shape": [list(p.shape) for p in parts],
        "dtype": [str(p.dtype) for p in parts],
        "tuple": isinstance(out, tuple),
    }
    if inputs and any(p.requires_grad for p in parts):
        loss = 0
        offset = 0
        for p in parts:
            n = p.numel()
            w = torch.tensor(INPUT["w"][offset : offset + n], device=DEVICE).reshape(p.shape)
            loss = loss + (p * w).sum()
            offset += n
        loss.backward()
        result["grads"] = [flat(x.grad) if x.grad is not None else None for x in inputs]
    return result


def case(fn, *shapes, scale=1.0):
    """fn of fresh inputs (leaves that require grad) of the given shapes."""
    inputs = [data(*s, offset=7 * i, scale=scale).requires_grad_() for i, s in enumerate(shapes)]
    try:
        return record(fn(*inputs), inputs)
    except Exception as e:  # the error is part of the result: both must raise alike
        return {"error": type(e).__name__}


GRAD = {
    # masks
    "tril": (lambda a: a.tril(), (4, 5)),
    "tril(1)": (lambda a: a.tril(1), (4, 5)),
    "torch.tril(diagonal=-1)": (lambda a: torch.tril(a, diagonal=-1), (2, 3, 4)),
    "triu": (lambda a: a.triu(), (4, 5)),
    "torch.triu(a, 2)": (lambda a: torch.triu(a, 2), (5, 4)),
    "where(c, a, b)": (lambda a, b: torch.where(a > 0, a, b), (3, 4), (3, 4)),
    "where(c, a, b) broadcast": (lambda a, b: torch.where(b > 0, a, b), (3, 1), (1, 4)),
    "where(c, a, 0.)": (lambda a: torch.where(a > 0.5, a, 0.0), (3, 4)),
    "Tensor.where": (lambda a, b: a.where(a < 0, b), (3, 4), (3, 4)),
    "diag(v)": (lambda a: torch.diag(a), (4,)),
    "diag(v, 1)": (lambda a: torch.diag(a, 1), (3,)),
    "diag(v, -2)": (lambda a: a.diag(-2), (3,)),
    "diag(m)": (lambda a: torch.diag(a), (4, 5)),
    "diag(m, 1)": (lambda a: torch.diag(a, 1), (4, 5)),
    "diag(m, -1)": (lambda a: a.diag(-1), (4, 3)),
    "trace": (lambda a: torch.trace(a), (4, 5)),
    "T": (lambda a: a.T, (3, 4)),
    "mT": (lambda a: a.mT, (2, 3, 4)),
    # splits and repeats
    "split(2)": (lambda a: torch.split(a, 2), (5, 3)),
    "split([1, 3, 1], dim=1)": (lambda a: a.split([1, 3, 1], dim=1), (2, 5)),
    "chunk(3, dim=1)": (lambda a: torch.chunk(a, 3, dim=1), (2, 7)),
    "chunk(4)": (lambda a: a.chunk(4), (6,)),
    "unbind(1)": (lambda a: torch.unbind(a, 1), (2, 3)),
    "unbind": (lambda a: a.unbind(), (3, 2)),
    "tensor_split(3)": (lambda a: torch.tensor_split(a, 3), (7,)),
    "tensor_split([1, 4], dim=1)": (lambda a: a.tensor_split([1, 4], dim=1), (2, 6)),
    "repeat(2, 3)": (lambda a: a.repeat(2, 3), (2, 3)),
    "repeat(2, 1, 2)": (lambda a: a.repeat(2, 1, 2), (3, 2)),
    "repeat_interleave(2, dim=0)": (lambda a: a.repeat_interleave(2, dim=0), (2, 3)),
    "repeat_interleave(3)": (lambda a: torch.repeat_interleave(a, 3), (2, 2)),
    # products
    "outer": (lambda a, b: torch.outer(a, b), (3,), (4,)),
    "Tensor.outer": (lambda a, b: a.outer(b), (2,), (3,)),
    "einsum ij,jk->ik": (lambda a, b: torch.einsum("ij,jk->ik", a, b), (3, 4), (4, 2)),
    "einsum bij,bjk->bik": (lambda a, b: torch.einsum("bij,bjk->bik", a, b), (2, 3, 4), (2, 4, 2)),
    "einsum ij->ji": (lambda a: torch.einsum("ij->ji", a), (3, 4)),
    "einsum i,i->": (lambda a, b: torch.einsum("i,i->", a, b), (5,), (5,)),
    "einsum ij->": (lambda a: torch.einsum("ij->", a), (3, 4)),
    "einsum i,j->ij": (lambda a, b: torch.einsum("i,j->ij", a, b), (3,), (2,)),
    "einsum ij,kj (implicit)": (lambda a, b: torch.einsum("ij,kj", a, b), (3, 4), (2, 4)),
    "einsum bhqd,bhkd->bhqk": (lambda a, b: torch.einsum("bhqd,bhkd->bhqk", a, b), (1, 2, 3, 4), (1, 2, 3, 4)),
    "einsum ...ij,...jk->...ik": (lambda a, b: torch.einsum("...ij,...jk->...ik", a, b), (2, 3, 4), (4, 2)),
    "einsum [list] i,ij,j->": (lambda a, b, c: torch.einsum("i,ij,j->", [a, b, c]), (3,), (3, 4), (4,)),
    "einsum ij,jk,kl->il": (lambda a, b, c: torch.einsum("ij,jk,kl->il", a, b, c), (2, 3), (3, 4), (4, 2)),
    "einsum ii->i": (lambda a: torch.einsum("ii->i", a), (3, 3)),
    "einsum ii (trace)": (lambda a: torch.einsum("ii", a), (3, 3)),
    "einsum bii->bi": (lambda a: torch.einsum("bii->bi", a), (2, 3, 3)),
    # statistics
    "logsumexp(1)": (lambda a: torch.logsumexp(a, 1), (3, 4)),
    "logsumexp((0, 1), keepdim)": (lambda a: a.logsumexp((0, 1), keepdim=True), (3, 4)),
    "norm()": (lambda a: a.norm(), (3, 4)),
    "norm(p=1, dim=1)": (lambda a: a.norm(p=1, dim=1), (3, 4)),
    "norm(inf, dim=0)": (lambda a: torch.norm(a, float("inf"), dim=0), (3, 4)),
    "norm(3)": (lambda a: a.norm(3), (3, 4)),
    "norm(dim=1, keepdim)": (lambda a: a.norm(dim=1, keepdim=True), (3, 4)),
    "norm() of zeros": (lambda a: (a * 0).norm(), (3,)),
    "norm(dim=1) with a zero row": (lambda a: (a * torch.tensor([[0.0], [1.0]], device=DEVICE)).norm(dim=1), (2, 3)),
    "linalg.norm": (lambda a: torch.linalg.norm(a), (3, 4)),
    "linalg.norm(v, ord=1)": (lambda a: torch.linalg.norm(a, ord=1), (5,)),
    "linalg.norm(m, ord=inf)": (lambda a: torch.linalg.norm(a, ord=INF), (3, 4)),
    "linalg.norm(m, 'fro')": (lambda a: torch.linalg.norm(a, "fro"), (3, 4)),
    "linalg.vector_norm(dim=1)": (lambda a: torch.linalg.vector_norm(a, dim=1), (3, 4)),
    "linalg.matrix_norm(ord=1)": (lambda a: torch.linalg.matrix_norm(a, ord=1), (2, 3, 4)),
    "var()": (lambda a: a.var(), (3, 4)),
    "var(1)": (lambda a: torch.var(a, 1), (3, 4)),
    "var(dim=1, unbiased=False, keepdim)": (lambda a: a.var(dim=1, unbiased=False, keepdim=True), (3, 4)),
    "var(False)": (lambda a: a.var(False), (3, 4)),
    "std(0)": (lambda a: a.std(0), (3, 4)),
    "std(dim=(0, 1))": (lambda a: torch.std(a, dim=(0, 1)), (3, 4)),
    "var_mean(1)": (lambda a: torch.var_mean(a, 1), (3, 4)),
    "std_mean": (lambda a: torch.std_mean(a), (3, 4)),
    "clamp_min": (lambda a: a.clamp_min(-0.5), (3, 4)),
    "clamp_max": (lambda a: torch.clamp_max(a, 0.25), (3, 4)),
    "masked_select": (lambda a: torch.masked_select(a, a > 0), (3, 4)),
}

LARGE = {  # logsumexp is stable where exp overflows float32
    "logsumexp large": (lambda a: a.logsumexp(1), (3, 4)),
}


def values():
    cond = data(3, 4) > 0
    a = data(3, 4)
    ints = torch.tensor([3, 1, 4], device=DEVICE)
    out = {
        "eye(3)": torch.eye(3, device=DEVICE),
        "eye(2, 4)": torch.eye(2, 4, device=DEVICE),
        "eye(3, dtype=int64)": torch.eye(3, dtype=torch.int64, device=DEVICE),
        "arange(3.)": torch.arange(3.0, device=DEVICE),
        "arange(0, 1, 0.1)": torch.arange(0, 1, 0.1, device=DEVICE),
        "arange(1, 4, 0.5)": torch.arange(1, 4, 0.5, device=DEVICE),
        "arange(5)": torch.arange(5, device=DEVICE),
        "full((2, 2), 3.)": torch.full((2, 2), 3.0, device=DEVICE),
        "full((2,), 7)": torch.full((2,), 7, device=DEVICE),
        "full((2,), True)": torch.full((2,), True, device=DEVICE),
        "tensor([1., 2.])": torch.tensor([1.0, 2.0], device=DEVICE),
        "tensor([1, 2])": torch.tensor([1, 2], device=DEVICE),
        "tensor(3.)": torch.tensor(3.0, device=DEVICE),
        "linspace(0, 1, 5)": torch.linspace(0, 1, 5, device=DEVICE),
        "linspace(-2, 3, 7)": torch.linspace(-2, 3, 7, device=DEVICE),
        "logspace(0, 2, 3)": torch.logspace(0, 2, 3, device=DEVICE),
        "empty_like": torch.empty_like(a).fill_(2),
        "triu(full(-inf), 1)": torch.triu(torch.full((4, 4), float("-inf"), device=DEVICE), diagonal=1),
        "tril(ones)": torch.tril(torch.ones(3, 3, device=DEVICE)),
        "tril(int)": torch.tril(ints.reshape(3, 1) * ints),
        "where(c, 1., 0.)": torch.where(cond, 1.0, 0.0),
        "where(c, 2, 0)": torch.where(cond, 2, 0),
        "where(c, a, 2)": torch.where(cond, a, 2),
        "where(c) one-arg": torch.where(cond),
        "nonzero": torch.nonzero(cond),
        "isclose": torch.isclose(a, a + 1e-6),
        "isclose(atol)": torch.isclose(a, a + 0.01, atol=0.02),
        "isclose(inf)": torch.isclose(torch.tensor([INF, 1.0], device=DEVICE), torch.tensor([INF, 2.0], device=DEVICE)),
        "Tensor.isclose": a.isclose(a * 1.1),
        "diag(int)": torch.diag(ints),
        "logsumexp(-inf row)": torch.logsumexp(torch.tensor([[-INF, -INF], [0.0, 1.0]], device=DEVICE), 1),
    }
    result = {}
    for name, t in out.items():
        parts = list(t) if isinstance(t, tuple) else [t]
        result[name] = {
            "y": [flat(p) for p in parts],
            "dtype": [str(p.dtype) for p in parts],
            "shape": [list(p.shape) for p in parts],
        }
    result["allclose"] = [torch.allclose(a, a + 1e-7), torch.allclose(a, a + 0.1), a.allclose(a)]
    result["numel"] = [torch.numel(a), a.numel()]
    result["split pieces"] = [len(torch.split(a, 3, dim=1)), len(a.chunk(2)), len(torch.unbind(a))]
    try:
        ints.float().long().var()
        result["var(int)"] = "no error"
    except RuntimeError as e:
        result["var(int)"] = str(e)
    try:
        a.split([1, 1], dim=0)
        result["split error"] = "no error"
    except RuntimeError as e:
        result["split error"] = type(e).__name__
    return result


def in_place():
    """add_, mul_, zero_, clamp_, fill_, copy_, tril_/triu_ on tensors, and grad modes."""
    a = data(3, 4)
    b = data(3, 4, offset=5)
    steps = {}
    a.add_(b)
    steps["add_"] = flat(a)
    a.add_(b, alpha=2)
    steps["add_(alpha)"] = flat(a)
    a.mul_(0.5)
    steps["mul_"] = flat(a)
    a.clamp_(-1, 1)
    steps["clamp_"] = flat(a)
    a.clamp_(min=0)
    steps["clamp_(min)"] = flat(a)
    a.copy_(b)
    steps["copy_"] = flat(a)
    a.tril_()
    steps["tril_"] = flat(a)
    a.copy_(b).triu_(1)
    steps["triu_"] = flat(a)
    a.fill_(2.5)
    steps["fill_"] = flat(a)
    a.zero_()
    steps["zero_"] = flat(a)
    # In place on a slice writes into the base, as a view in PyTorch.
    c = data(3, 4)
    c[1].mul_(10)
    c[:, 0].zero_()
    steps["views"] = flat(c)

    w = data(2, 3).requires_grad_()
    with torch.no_grad():
        y = w * 2
        w.add_(1)  # a leaf that requires grad may change in place under no_grad
    modes = {"no_grad": [y.requires_grad, w.requires_grad, torch.is_grad_enabled()]}

    @torch.no_grad()
    def doubled(t):
        return t * 2

    modes["no_grad decorator"] = [doubled(w).requires_grad, torch.is_grad_enabled()]
    with torch.inference_mode():
        modes["inference_mode"] = [(w * 2).requires_grad, torch.is_grad_enabled()]

    @torch.inference_mode()
    def tripled(t):
        return t * 3

    modes["inference_mode decorator"] = [tripled(w).requires_grad]
    with torch.no_grad():
        with torch.enable_grad():
            modes["enable_grad"] = [(w * 2).requires_grad]
    modes["after"] = [(w * 2).requires_grad]
    steps["w after"] = flat(w)
    return {"steps": steps, "modes": modes}


def autograd_in_place():
    """In-place updates where autograd sees them: PyTorch's refusal on a leaf that requires grad,
    in-place ops on intermediate results, and the manual SGD loop of a first course."""
    out = {}
    w = data(2, 3).requires_grad_()
    try:
        w.add_(1)
        out["leaf add_"] = "no error"
    except RuntimeError:
        out["leaf add_"] = "RuntimeError"
    x = data(2, 3, offset=3).requires_grad_()
    y = x * 2
    y.add_(1)
    (y * data(2, 3, offset=9)).sum().backward()
    out["non-leaf add_ grad"] = flat(x.grad)
    out["non-leaf add_ values"] = flat(y)
    x = data(2, 3, offset=3).requires_grad_()
    y = x * 2
    y.mul_(3)
    (y * data(2, 3, offset=9)).sum().backward()
    out["non-leaf mul_ grad"] = flat(x.grad)
    # w -= lr * w.grad under no_grad, then w.grad.zero_(): the loop of a first course.
    w = data(3).requires_grad_()
    a = data(3, offset=11)
    losses = []
    for _ in range(3):
        loss = ((w * a).sum() - 1) ** 2
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
        losses.append(loss.item())
    out["sgd losses"] = losses
    out["sgd w"] = flat(w)
    out["sgd grad"] = flat(w.grad)
    # copy_ from a tensor that requires grad: the gradient reaches the source.
    x = data(2, 3).requires_grad_()
    buffer = torch.zeros(2, 3, device=DEVICE)
    buffer.copy_(x * 2)
    (buffer * data(2, 3, offset=9)).sum().backward()
    out["copy_ grad"] = flat(x.grad)
    out["copy_ requires_grad"] = [buffer.requires_grad, buffer.is_leaf]
    # Truncated backpropagation through time: hidden.detach_() cuts the history in place.
    x = data(2, 3).requires_grad_()
    hidden = x * 2
    same = hidden.detach_()
    out["detach_"] = [same is hidden, hidden.requires_grad, hidden.grad_fn is None, hidden.is_leaf]
    (x * hidden).sum().backward()
    out["detach_ grad"] = flat(x.grad)
    return out


RESULT = {
    "grad": {name: case(fn, *shapes) for name, (fn, *shapes) in GRAD.items()},
    "large": {name: case(fn, *shapes, scale=40.0) for name, (fn, *shapes) in LARGE.items()},
    "values": values(),
    "in_place": in_place(),
    "autograd_in_place": autograd_in_place(),
}
