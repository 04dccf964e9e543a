"""The program torch-attention.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch 1.13, CPU): F.scaled_dot_product_attention
(1.13 has none, so there the formula softmax(q·kᵀ/√E + mask)·v stands in) with no mask, a causal
one, bool and float masks; nn.MultiheadAttention (self- and cross-attention, batch_first,
unbatched, key_padding_mask, bool and float attn_mask, per-head weights, need_weights=False) from
the same weights: outputs, attention weights, input and parameter gradients, reprs and names.
It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``values``: random numbers every tensor is cut from, in order;
``only``: "sdpa" and/or "mha") and ``DEVICE`` under ours. A test fixture, not an installed package.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch
VALUES = INPUT["values"]
ONLY = INPUT.get("only", ["sdpa", "mha"])
_offset = [0]


def take(*shape):
    """The next values of INPUT as a tensor of ``shape`` on DEVICE (wrapping around the list)."""
    n = math.prod(shape)
    start = _offset[0]
    _offset[0] += n
    flat = [VALUES[(start + i) % len(VALUES)] for i in range(n)]
    return torch.tensor(flat, device=DEVICE).reshape(*shape)


def flat(t):
    return t.detach().cpu().reshape(-1).tolist()


def bools(rows, cols, keep):
    """A bool mask [rows, cols] with ``keep(i, j)`` True."""
    return torch.tensor([[keep(i, j) for j in range(cols)] for i in range(rows)], device=DEVICE)


def reference_sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if is_causal:
        attn_mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    return scores.softmax(-1) @ v


HAS_SDPA = hasattr(F, "scaled_dot_product_attention")
sdpa = F.scaled_dot_product_attention if HAS_SDPA else reference_sdpa


def run_sdpa(shapes, **kwargs):
    q, k, v = (take(*s).requires_grad_() for s in shapes)
    y = sdpa(q, k, v, **kwargs)
    (y * take(*y.shape)).sum().backward()
    return {"y": flat(y), "shape": list(y.shape), "grads": [flat(t.grad) for t in (q, k, v)]}


def run_mha(make, shapes, **kwargs):
    """MultiheadAttention from INPUT's weights on query/key/value of ``shapes`` (one shape: self-
    attention); the gradients of a weighted sum of its output (and of its weights, when given)."""
    module = make().to(DEVICE)
    with torch.no_grad():
        for _, p in module.named_parameters():
            p.copy_(take(*p.shape))
    inputs = [take(*s).requires_grad_() for s in shapes]
    q, k, v = (inputs * 3)[:3] if len(inputs) == 1 else inputs
    out, weights = module(q, k, v, **kwargs)
    loss = (out * take(*out.shape)).sum()
    if weights is not None:
        loss = loss + (weights * take(*weights.shape)).sum()
    loss.backward()
    return {
        "out": flat(out),
        "shape": list(out.shape),
        "weights": None if weights is None else flat(weights),
        "weights_shape": None if weights is None else list(weights.shape),
        "grads": [flat(t.grad) for t in inputs],
        "params": {name: flat(p.grad) for name, p in module.named_parameters()},
        "is_tuple": isinstance(module(q, k, v, **kwargs), tuple),
    }


RESULT = {"has_sdpa": HAS_SDPA}
if "sdpa" in ONLY:
    RESULT["sdpa"] = {
        "plain": run_sdpa([(2, 3, 4, 8), (2, 3, 6, 8), (2, 3, 6, 5)]),
        "causal": run_sdpa([(3, 4, 8), (3, 4, 8), (3, 4, 8)], is_causal=True),
        "bool mask": run_sdpa([(2, 4, 8), (2, 6, 8), (2, 6, 8)], attn_mask=bools(4, 6, lambda i, j: (i + j) % 3 != 1)),
        "float mask": run_sdpa([(2, 4, 8), (2, 6, 8), (2, 6, 8)], attn_mask=take(4, 6)),
    }
if "mha" in ONLY:
    RESULT["mha"] = {
        "cross": run_mha(lambda: nn.MultiheadAttention(8, 2), [(4, 3, 8), (6, 3, 8), (6, 3, 8)]),
        "batch_first masks per head": run_mha(
            lambda: nn.MultiheadAttention(8, 2, batch_first=True),
            [(3, 5, 8)],
            key_padding_mask=bools(3, 5, lambda n, s: s == 4 - n),
            attn_mask=bools(5, 5, lambda i, j: j > i + 1),
            average_attn_weights=False,
        ),
        "unbatched float mask no weights": run_mha(
            lambda: nn.MultiheadAttention(8, 4, bias=False),
            [(5, 8)],
            attn_mask=take(5, 5),
            need_weights=False,
        ),
    }
    RESULT["reprs"] = [
        repr(nn.MultiheadAttention(8, 2)),
        repr(nn.MultiheadAttention(8, 2, dropout=0.1, bias=False, batch_first=True)),
    ]
    RESULT["names"] = [n for n, _ in nn.MultiheadAttention(8, 2).named_parameters()]
    RESULT["state"] = list(nn.MultiheadAttention(8, 2).state_dict().keys())
    RESULT["zero_biases"] = [
        flat(nn.MultiheadAttention(8, 2).in_proj_bias),
        flat(nn.MultiheadAttention(8, 2).out_proj.bias),
    ]
