"""The program elementwise-faces.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and
on WebGPU) and under real PyTorch (Debian's python3-torch, CPU): the element-wise table's
activations in their ``torch.*``, Tensor-method, ``F.*`` and ``nn`` module forms, with PyTorch's
arguments, their values and input gradients on the same random inputs, and the modules' reprs;
and F's forms that no Python line wraps.
It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``x``: values, ``positive``: values > 0, ``weights``: the gradient's
upstream weights for each) and ``DEVICE`` under ours. A test fixture, not an installed package.
"""

import torch
import torch.nn.functional as F
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def run(fn, values, weights):
    x = torch.tensor(values, device=DEVICE).requires_grad_()
    y = fn(x).reshape(-1)
    (y * torch.tensor(weights[: y.shape[0]], device=DEVICE)).sum().backward()
    return {"y": y.detach().cpu().tolist(), "grad": x.grad.cpu().tolist()}


ANY = {
    "torch.relu": torch.relu,
    "torch.sigmoid": torch.sigmoid,
    "torch.tanh": torch.tanh,
    "Tensor.exp": lambda t: t.exp(),
    "Tensor.square": lambda t: t.square(),
    "torch.neg": torch.neg,
    "F.relu": lambda t: F.relu(t),
    "F.relu(inplace=False)": lambda t: F.relu(t, inplace=False),
    "F.softplus": F.softplus,
    "F.softplus(beta=2, threshold=1.5)": lambda t: F.softplus(t, beta=2, threshold=1.5),
    "F.softplus(t, 0.5)": lambda t: F.softplus(t, 0.5),
    "nn.ReLU": nn.ReLU(),
    "nn.Sigmoid": nn.Sigmoid(),
    "nn.Tanh": nn.Tanh(),
    "nn.Softplus": nn.Softplus(),
    "nn.Softplus(3, 4)": nn.Softplus(3, 4),
    # Issue 36's activations, with their arguments.
    "F.leaky_relu": F.leaky_relu,
    "F.leaky_relu(0.2)": lambda t: F.leaky_relu(t, 0.2),
    "nn.LeakyReLU(negative_slope=0.1)": nn.LeakyReLU(negative_slope=0.1),
    "F.elu": F.elu,
    "nn.ELU(alpha=0.5)": nn.ELU(alpha=0.5),
    "F.gelu": F.gelu,
    "F.gelu(approximate='tanh')": lambda t: F.gelu(t, approximate="tanh"),
    "nn.GELU": nn.GELU(),
    "nn.GELU('tanh')": nn.GELU("tanh"),
    "F.silu": F.silu,
    "nn.SiLU": nn.SiLU(),
    "F.mish": F.mish,
    "nn.Mish": nn.Mish(),
    "F.hardtanh": F.hardtanh,
    "nn.Hardtanh(-2.0, 2.5)": nn.Hardtanh(-2.0, 2.5),
    "F.hardtanh(min_val=-0.5, max_val=0.25)": lambda t: F.hardtanh(t, min_val=-0.5, max_val=0.25),
    "F.relu6": F.relu6,
    "nn.ReLU6": nn.ReLU6(),
    "F.hardsigmoid": F.hardsigmoid,
    "nn.Hardsigmoid": nn.Hardsigmoid(),
    "F.hardswish": F.hardswish,
    "nn.Hardswish": nn.Hardswish(),
    "F.softsign": F.softsign,
    "nn.Softsign": nn.Softsign(),
    "F.selu": F.selu,
    "nn.SELU": nn.SELU(),
    "F.logsigmoid": F.logsigmoid,
    "nn.LogSigmoid": nn.LogSigmoid(),
    # F's forms the TS layer answers by name (no Python wrapper).
    "F.max_pool2d": lambda t: F.max_pool2d(t[:48].reshape(1, 3, 4, 4), 2),
    "F.mse_loss(sum)": lambda t: F.mse_loss(t, t.detach() * 0.5 + 0.25, reduction="sum"),
    "F.dropout(training=False)": lambda t: F.dropout(t, 0.3, training=False),
    "F.l1_loss": lambda t: F.l1_loss(t, t.detach() * -0.5),
}
POSITIVE = {
    "torch.rsqrt": torch.rsqrt,
    "torch.reciprocal": torch.reciprocal,
    "Tensor.log": lambda t: t.log(),
    "Tensor.sqrt": lambda t: t.sqrt(),
}

RESULT = {
    "any": {name: run(fn, INPUT["x"], INPUT["weights"]) for name, fn in ANY.items()},
    "positive": {name: run(fn, INPUT["positive"], INPUT["weights"]) for name, fn in POSITIVE.items()},
    "reprs": [
        repr(nn.ReLU()),
        repr(nn.ReLU(inplace=True)),
        repr(nn.Sigmoid()),
        repr(nn.Tanh()),
        repr(nn.Softplus()),
        repr(nn.Softplus(beta=2, threshold=5)),
        repr(nn.Sequential(nn.Linear(2, 3), nn.Softplus(), nn.Tanh())),
        repr(nn.LeakyReLU()),
        repr(nn.LeakyReLU(negative_slope=0.1)),
        repr(nn.LeakyReLU(0.2, inplace=True)),
        repr(nn.ELU()),
        repr(nn.ELU(alpha=0.5)),
        repr(nn.GELU()),
        repr(nn.GELU(approximate="tanh")),
        repr(nn.SiLU()),
        repr(nn.Mish()),
        repr(nn.Hardtanh()),
        repr(nn.Hardtanh(-2.0, 2.5)),
        repr(nn.ReLU6()),
        repr(nn.Hardsigmoid()),
        repr(nn.Hardswish()),
        repr(nn.Softsign()),
        repr(nn.SELU()),
        repr(nn.SELU(inplace=True)),
        repr(nn.LogSigmoid()),
    ],
    "activation_fields": [
        nn.LeakyReLU(0.2).negative_slope,
        nn.ELU(alpha=0.5).alpha,
        nn.Hardtanh(-2.0, 2.5).min_val,
        nn.Hardtanh(-2.0, 2.5).max_val,
        nn.GELU("tanh").approximate,
    ],
    "softplus_fields": [nn.Softplus(beta=2).beta, nn.Softplus(beta=2).threshold],
}
