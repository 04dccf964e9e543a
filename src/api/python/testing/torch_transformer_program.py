"""The program torch-transformer.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch 1.13, CPU): nn.TransformerEncoderLayer
(post-norm with a causal float mask from nn.Transformer.generate_square_subsequent_mask; pre-norm,
gelu, batch_first with a key padding mask) and nn.TransformerEncoder (two copies of a layer and a
final LayerNorm, both masks), in eval mode, from the same weights: outputs, input and parameter
gradients, reprs and state dict keys.
It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``values``: random numbers every tensor is cut from, in order;
``only``: the case names, "reprs" for the reprs) and ``DEVICE`` under ours. A test fixture, not an
installed package.
"""

import math

import torch
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch
VALUES = INPUT["values"]
ONLY = INPUT.get("only")
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


def padding(batch, seq):
    """A key padding mask [batch, seq]: the last n positions of row n are padding."""
    return torch.tensor([[s >= seq - n for s in range(seq)] for n in range(batch)], device=DEVICE)


def run(make, x_shape, **kwargs):
    module = make().to(DEVICE).eval()
    with torch.no_grad():
        for _, p in module.named_parameters():
            p.copy_(take(*p.shape) * (1.0 if p.dim() > 1 else 0.5))
    x = take(*x_shape).requires_grad_()
    y = module(x, **kwargs)
    (y * take(*y.shape)).sum().backward()
    return {
        "y": flat(y),
        "shape": list(y.shape),
        "x_grad": flat(x.grad),
        "params": {name: flat(p.grad) for name, p in module.named_parameters()},
    }


CASES = {
    "layer post-norm causal": lambda: run(
        lambda: nn.TransformerEncoderLayer(8, 2, 16),
        (5, 3, 8),
        src_mask=nn.Transformer.generate_square_subsequent_mask(5).to(DEVICE),
    ),
    "layer pre-norm gelu batch_first padding": lambda: run(
        lambda: nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", batch_first=True, norm_first=True),
        (3, 5, 8),
        src_key_padding_mask=padding(3, 5),
    ),
    "encoder of 2 with norm": lambda: run(
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, norm=nn.LayerNorm(8)),
        (5, 2, 8),
        mask=nn.Transformer.generate_square_subsequent_mask(5).to(DEVICE),
        src_key_padding_mask=padding(2, 5),
    ),
}

RESULT = {"cases": {name: case() for name, case in CASES.items() if ONLY is None or name in ONLY}}
if ONLY is None or "reprs" in ONLY:
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8))
    RESULT["reprs"] = [repr(layer), repr(encoder)]
    RESULT["keys"] = list(encoder.state_dict().keys())
    # The encoder's layers are copies: same weights as the layer, not the same tensors.
    first = encoder.layers[0].linear1.weight
    RESULT["copied"] = [flat(first) == flat(layer.linear1.weight), first is not layer.linear1.weight]
    RESULT["mask"] = [str(v) for v in flat(nn.Transformer.generate_square_subsequent_mask(3))]
