"""The program torch-recurrent.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU): nn.RNN, nn.LSTM and nn.GRU in several
configurations (layers, directions, batch_first, unbatched input, initial states or none), from the
same weights: outputs, final states, and the gradients of a weighted sum of them with respect to
the input, the initial states and every parameter; the modules' reprs and parameter names.
It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``values``: random numbers every tensor is cut from, in order;
``only``: the names of the cases to run, "reprs" for the reprs, names and fields) and
``DEVICE`` under ours. A test fixture, not an installed package.
"""

import torch
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch
VALUES = INPUT["values"]
_offset = [0]


def take(*shape):
    """The next values of INPUT as a tensor of ``shape`` on DEVICE (wrapping around the list)."""
    n = 1
    for s in shape:
        n *= s
    start = _offset[0]
    _offset[0] += n
    flat = [VALUES[(start + i) % len(VALUES)] for i in range(n)]
    return torch.tensor(flat, device=DEVICE).reshape(*shape)


def flat(t):
    return t.detach().cpu().reshape(-1).tolist()


def run(make, x_shape, states):
    """Builds the module, loads weights from INPUT, runs it on a random input and initial states
    (``states``: None, or the shapes of h_0 / (h_0, c_0)) and backpropagates a weighted sum."""
    module = make().to(DEVICE)
    with torch.no_grad():
        for _, p in module.named_parameters():
            p.copy_(take(*p.shape))
    x = take(*x_shape).requires_grad_()
    hx = None
    if states is not None:
        hx = tuple(take(*s).requires_grad_() for s in states)
    lstm = isinstance(module, nn.LSTM)
    if hx is None:
        output, h = module(x)
    else:
        output, h = module(x, hx if lstm else hx[0])
    finals = list(h) if lstm else [h]
    loss = (output * take(*output.shape)).sum()
    for s in finals:
        loss = loss + (s * take(*s.shape)).sum()
    loss.backward()
    result = {
        "output": flat(output),
        "output_shape": list(output.shape),
        "finals": [flat(s) for s in finals],
        "final_shapes": [list(s.shape) for s in finals],
        "x_grad": flat(x.grad),
        "state_grads": [] if hx is None else [flat(s.grad) for s in hx],
        "params": {name: flat(p.grad) for name, p in module.named_parameters()},
        "repr": repr(module),
        "is_tuple": isinstance((output, h), tuple) and (not lstm or isinstance(h, tuple)),
    }
    return result


CASES = {
    "LSTM(4, 8, 2, batch_first, bidirectional) with (h0, c0)": (
        lambda: nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True),
        (3, 5, 4),
        [(4, 3, 8), (4, 3, 8)],
    ),
    "LSTM(4, 8, bias=False) unbatched": (lambda: nn.LSTM(4, 8, bias=False), (5, 4), None),
    "GRU(4, 8)": (lambda: nn.GRU(4, 8), (5, 3, 4), None),
    "GRU(4, 8, 2, bidirectional, batch_first) with h0": (
        lambda: nn.GRU(4, 8, 2, batch_first=True, bidirectional=True),
        (3, 5, 4),
        [(4, 3, 8)],
    ),
    "RNN(4, 8, 2, relu) with h0": (lambda: nn.RNN(4, 8, 2, nonlinearity="relu"), (5, 3, 4), [(2, 3, 8)]),
    "RNN(4, 8) unbatched with h0": (lambda: nn.RNN(4, 8), (5, 4), [(1, 8)]),
}

ONLY = INPUT.get("only")  # the test runs a few cases at a time (WebGPU on SwiftShader is slow)
RESULT = {"cases": {name: run(*case) for name, case in CASES.items() if ONLY is None or name in ONLY}}
if ONLY is None or "reprs" in ONLY:
    RESULT["reprs"] = [
        repr(nn.RNN(4, 8, nonlinearity="relu")),
        repr(nn.RNN(4, 8, 2, dropout=1)),
        repr(nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True)),
        repr(nn.GRU(3, 5, 2, bias=False, dropout=0.25)),
        repr(nn.Sequential(nn.LSTM(2, 3), nn.Linear(3, 1))),
    ]
    RESULT["names"] = [name for name, _ in nn.LSTM(2, 3, 2, bidirectional=True).named_parameters()]
    RESULT["shapes"] = [list(p.shape) for p in nn.GRU(2, 3, 2, bidirectional=True).parameters()]
    RESULT["fields"] = [
        nn.LSTM(2, 3, 2).hidden_size,
        nn.LSTM(2, 3, 2).num_layers,
        nn.GRU(2, 3, batch_first=True).batch_first,
    ]
