"""The program torch-norm.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU): the normalisation layers and their
functional forms on the same random inputs. For each module, two training steps (values, input
and parameter gradients, running statistics after both), then an evaluation-mode forward; the
functional forms' values and gradients; reprs and state-dict keys. It leaves them in ``RESULT``.

The test defines ``INPUT`` (``values``: random numbers to draw inputs from, ``upstream``: the
gradient's weights, ``params``: values for weights and biases) and ``DEVICE`` under ours. A test
fixture, not an installed package.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def tensor(key, shape, offset=0, grad=False):
    values = INPUT[key][offset : offset + numel(shape)]
    t = torch.tensor(values, device=DEVICE).reshape(shape)
    return t.requires_grad_() if grad else t


def flat(t):
    return t.detach().cpu().reshape(-1).tolist()


def set_params(m, n):
    """Weights and biases from INPUT (not PyTorch's ones and zeros, which would hide mistakes)."""
    with torch.no_grad():
        if getattr(m, "weight", None) is not None:
            m.weight.copy_(tensor("params", (n,)))
            m.bias.copy_(tensor("params", (n,), offset=n))


def steps(m, shape, n_params):
    """Two training steps and an evaluation forward of module ``m``."""
    m = m.to(DEVICE)
    if n_params:
        set_params(m, n_params)
    out = {}
    for step in range(2):
        x = tensor("values", shape, offset=step * 7, grad=True)
        y = m(x)
        (y * tensor("upstream", shape)).sum().backward()
        out[f"y{step}"] = flat(y)
        out[f"grad{step}"] = flat(x.grad)
    for name, p in m.named_parameters():
        out[f"{name}.grad"] = flat(p.grad)
    for name, buf in m.named_buffers():
        out[name] = flat(buf.float())
    m.eval()
    with torch.no_grad():
        out["eval"] = flat(m(tensor("values", shape, offset=3)))
    return out


MODULES = {
    "LayerNorm(6)": (lambda: nn.LayerNorm(6), (4, 6), 6),
    "LayerNorm((3, 4))": (lambda: nn.LayerNorm((3, 4), eps=1e-3), (2, 3, 4), 0),
    "LayerNorm(no affine)": (lambda: nn.LayerNorm([5], elementwise_affine=False), (3, 5), 0),
    "BatchNorm1d (N, C)": (lambda: nn.BatchNorm1d(6), (5, 6), 6),
    "BatchNorm1d (N, C, L)": (lambda: nn.BatchNorm1d(4, momentum=0.3), (3, 4, 5), 4),
    "BatchNorm1d(momentum=None)": (lambda: nn.BatchNorm1d(4, momentum=None), (3, 4, 5), 4),
    "BatchNorm2d": (lambda: nn.BatchNorm2d(4), (2, 4, 3, 3), 4),
    "BatchNorm2d(affine=False)": (lambda: nn.BatchNorm2d(4, affine=False), (2, 4, 3, 3), 0),
    "BatchNorm2d(track_running_stats=False)": (
        lambda: nn.BatchNorm2d(4, track_running_stats=False),
        (2, 4, 3, 3),
        4,
    ),
    "BatchNorm3d": (lambda: nn.BatchNorm3d(2), (2, 2, 2, 3, 2), 2),
    "InstanceNorm3d(affine)": (lambda: nn.InstanceNorm3d(2, affine=True), (2, 2, 2, 2, 3), 2),
    "GroupNorm(2, 4)": (lambda: nn.GroupNorm(2, 4), (2, 4, 3, 3), 4),
    "GroupNorm(1, 6, affine=False)": (lambda: nn.GroupNorm(1, 6, affine=False), (3, 6), 0),
    "InstanceNorm1d": (lambda: nn.InstanceNorm1d(4), (3, 4, 5), 0),
    "InstanceNorm2d(affine, track)": (
        lambda: nn.InstanceNorm2d(4, affine=True, track_running_stats=True),
        (2, 4, 3, 3),
        4,
    ),
}


def functional():
    out = {}
    shape = (2, 4, 3, 3)
    w, b = tensor("params", (4,)), tensor("params", (4,), offset=4)
    rm, rv = torch.zeros(4, device=DEVICE), torch.ones(4, device=DEVICE)
    forms = {
        "F.layer_norm": lambda x: F.layer_norm(x, (3, 3), tensor("params", (3, 3)), None),
        "F.layer_norm(eps)": lambda x: F.layer_norm(x, [3], eps=0.1),
        "F.layer_norm(x.shape[-2:])": lambda x: F.layer_norm(x, x.shape[-2:]),
        "F.batch_norm(training)": lambda x: F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.2),
        "F.batch_norm(eval)": lambda x: F.batch_norm(x, rm, rv, w, b),
        "F.batch_norm(no running)": lambda x: F.batch_norm(x, None, None, training=True),
        "F.group_norm": lambda x: F.group_norm(x, 2, w, b, eps=1e-4),
        "F.instance_norm": lambda x: F.instance_norm(x, weight=w, bias=b),
    }
    for name, fn in forms.items():
        x = tensor("values", shape, grad=True)
        y = fn(x)
        (y * tensor("upstream", shape)).sum().backward()
        out[name] = {"y": flat(y), "grad": flat(x.grad)}
    return out, flat(rm) + flat(rv)


def attributes():
    """PyTorch's attributes, and momentum set after construction taking effect."""
    bn = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
    ln = nn.LayerNorm((2, 3))
    out = [
        bn.weight is None,
        bn.running_mean is None,
        bn.num_features,
        bn.eps,
        ln.normalized_shape,
        nn.GroupNorm(2, 4).num_groups,
        nn.InstanceNorm2d(3).affine,
    ]
    m = nn.BatchNorm1d(3).to(DEVICE)
    m.momentum = 0.5
    m.eps = 0.01
    m(tensor("values", (4, 3)))
    # eval() reaches a layer inside a container: its running statistics stay as they are.
    seq = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)).to(DEVICE).eval()
    seq(tensor("values", (4, 3)))
    out += [flat(seq[1].running_var), int(seq[1].num_batches_tracked)]
    # A state dict's round trip carries the buffers.
    copy = nn.BatchNorm1d(3).to(DEVICE)
    copy.load_state_dict(m.state_dict())
    out += [int(copy.num_batches_tracked), flat(copy.running_mean) == flat(m.running_mean)]
    return [repr(x) for x in out] + [repr(m), flat(m.running_mean)]


def errors():
    """The exception type and message of bad input."""
    out = []
    for make, shape in [
        (lambda: nn.BatchNorm2d(4), (2, 4, 3)),
        (lambda: nn.BatchNorm1d(4), (2, 4, 3, 3)),
        (lambda: nn.InstanceNorm2d(4), (4, 3)),
    ]:
        try:
            make()(torch.ones(shape, device=DEVICE))
            out.append("no error")
        except Exception as error:
            out.append(f"{type(error).__name__}: {error}")
    return out


def training():
    """A small CNN with BatchNorm2d trained by SGD for 3 steps, then evaluated: the losses, the
    BatchNorm's parameters and running statistics, and the evaluation output."""
    model = nn.Sequential(
        nn.Conv2d(1, 3, 3),
        nn.BatchNorm2d(3),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(12, 6),
        nn.LayerNorm(6),
        nn.Linear(6, 2),
    )
    state = {}
    offset = 0
    for name, t in model.state_dict().items():
        if t.dtype == torch.float32:
            n = numel(t.shape)
            state[name] = torch.tensor([math.sin(offset + k) * 0.5 for k in range(n)]).reshape(t.shape)
            offset += n
        else:
            state[name] = t
    model.load_state_dict(state)
    model = model.to(DEVICE)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    target = tensor("upstream", (5, 2), offset=40)
    losses = []
    for step in range(3):
        x = tensor("values", (5, 1, 4, 4), offset=step * 11)
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        y = model(tensor("values", (5, 1, 4, 4), offset=50))
    bn = model[1]
    return {
        "losses": losses,
        "bn": flat(bn.weight) + flat(bn.bias) + flat(bn.running_mean) + flat(bn.running_var),
        "eval": flat(y),
    }


FUNCTIONAL, RUNNING = functional()
RESULT = {
    "modules": {name: steps(make(), shape, n) for name, (make, shape, n) in MODULES.items()},
    "functional": FUNCTIONAL,
    "running": RUNNING,
    "attributes": attributes(),
    "errors": errors(),
    "training": training(),
    "reprs": [
        repr(nn.LayerNorm(16)),
        repr(nn.LayerNorm(torch.zeros(2, 3, 5).shape[1:])),
        repr(nn.LayerNorm((2, 3), eps=1e-6, elementwise_affine=False)),
        repr(nn.BatchNorm1d(3)),
        repr(nn.BatchNorm2d(8)),
        repr(nn.BatchNorm2d(8, eps=0.001, momentum=None, affine=False, track_running_stats=False)),
        repr(nn.GroupNorm(2, 8)),
        repr(nn.InstanceNorm1d(5)),
        repr(nn.InstanceNorm2d(8, affine=True)),
        repr(nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU())),
    ],
    "state_dict": list(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.LayerNorm(4)).state_dict().keys()),
    "buffers": [[name, str(t.dtype), list(t.shape)] for name, t in nn.BatchNorm2d(3).named_buffers()],
}
