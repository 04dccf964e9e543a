"""``torch.linalg``: the norms a course uses, over the engine's vector norm (Tensor.norm). Matrix
norms are the Frobenius norm and the ±1/±inf norms (max/min column or row sums); the spectral and
nuclear norms need an SVD, which the engine does not have.
"""

import builtins


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    return x.norm(ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    if ord == "fro":
        return A.norm("fro", list(dim), keepdim)
    if ord in (1, -1, builtins.float("inf"), -builtins.float("inf")):
        rows, cols = dim
        # 1: the largest column sum of |A|; inf: the largest row sum.
        summed, over = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = A.abs().sum(summed, keepdim=True)
        out = sums.amax(over, keepdim=True) if ord > 0 else sums.amin(over, keepdim=True)
        if not keepdim:
            for d in sorted((d % A.ndim for d in dim), reverse=True):
                out = out.squeeze(d)
        return out
    raise RuntimeError(
        f"linalg.matrix_norm: ord={ord!r} is not supported (it needs an SVD): use 'fro', 1, -1, inf or -inf"
    )


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """PyTorch's linalg.norm: the 2-norm of the flattened input when ord and dim are None; else a
    vector norm for one dim (or a 1-D input) and a matrix norm for two dims (or a 2-D input)."""
    if isinstance(dim, builtins.int):
        dim = (dim,)
    if ord is None:
        return A.norm(2, None if dim is None else list(dim), keepdim)
    if dim is None:
        if A.ndim not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.ndim}D."
            )
        dim = tuple(range(A.ndim))
    if len(dim) == 1:
        return vector_norm(A, ord, list(dim), keepdim)
    return matrix_norm(A, ord, tuple(dim), keepdim)
