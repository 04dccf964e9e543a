"""The program torch-boilerplate.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and
on WebGPU) and under real PyTorch (Debian's python3-torch 1.13, CPU): the lines at the top of real
notebooks (backends flags, default dtype, determinism, threads, version, seeding, print options),
and a small classifier trained for three SGD steps twice — plainly, and with ``autocast`` and
``GradScaler`` as mixed-precision code writes them — from the same weights and data.
It leaves ``RESULT``, which the test compares. ``INPUT`` (weights ``w``, ``b``, data ``x``, labels
``y``) and, under ours, ``DEVICE`` are set by the test. A test fixture, not an installed package.

Real PyTorch 1.13 has no ``torch.amp.GradScaler`` (2.3 added it), so both run ``torch.cuda.amp``'s;
on a CPU-only PyTorch, autocast for "cuda" and the GradScaler disable themselves, which is what
ours do everywhere (the engine computes in float32).
"""

import torch
import torch.backends.cudnn
import torch.nn.functional as F
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch

# The boilerplate, as notebooks write it.
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.backends.cuda.matmul.allow_tf32 = False
torch.set_default_dtype(torch.float32)
torch.use_deterministic_algorithms(True)
torch.set_num_threads(1)
generator = torch.manual_seed(0)
flags = {
    "cudnn": [torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark, torch.backends.cudnn.enabled],
    "mps": [torch.backends.mps.is_available(), torch.backends.mps.is_built()],
    "tf32": torch.backends.cuda.matmul.allow_tf32,
    "default_dtype": str(torch.get_default_dtype()),
    "deterministic": torch.are_deterministic_algorithms_enabled(),
    "threads": torch.get_num_threads(),
    "version_cuda_is_none": torch.version.cuda is None,
    "version_is_str": isinstance(torch.version.__version__, str) and isinstance(torch.__version__, str),
    "generator": [isinstance(generator, torch.Generator), generator.initial_seed()],
    "own_generator": torch.Generator().manual_seed(42).initial_seed(),
}
torch.set_default_dtype(torch.float64)
flags["float64_default"] = str(torch.get_default_dtype())
torch.set_default_dtype(torch.float32)
torch.use_deterministic_algorithms(False)
flags["deterministic_off"] = torch.are_deterministic_algorithms_enabled()
errors = {}
try:
    torch.set_default_dtype(torch.int64)
except TypeError as e:
    errors["default_int"] = str(e)

# Print options: each repr as PyTorch prints it (on the cpu, so no device suffix differs).
x = torch.tensor([1.12345, -2.5, 3.0, 0.000123])
reprs = []
for options, tensor in [
    (dict(precision=2), torch.tensor([1.12345, -2.5, 3.0])),
    (dict(sci_mode=False), torch.tensor([1e-5, 1.0, -2.5])),
    (dict(sci_mode=True), torch.tensor([1.5, 2.25])),
    (dict(sci_mode=True), torch.tensor([0.0, 0.0])),
    (dict(sci_mode=False), torch.tensor([1e9, 1.0])),
    (dict(threshold=5), torch.arange(10)),
    (dict(threshold=5, edgeitems=2), torch.arange(20.0) / 3),
    (dict(profile="short"), torch.arange(12.0).reshape(2, 6) / 7),
    (dict(linewidth=30), torch.arange(12.0) / 7),
    (dict(profile="full"), torch.arange(1200)),
    (dict(profile="default"), torch.tensor([1.12345])),
]:
    torch.set_printoptions(**options)
    reprs.append(repr(tensor))
torch.set_printoptions(profile="default", sci_mode=None)
reprs.append(repr(x))
# Whole numbers in a float tensor: scientific when they spread over more than 1000 (PyTorch's rule).
reprs += [repr(torch.tensor(v)) for v in ([1.0, 2000.0], [0.0, 5000.0], [10.0, 10000.0], [1.0, -1001.0])]


def train(mixed):
    torch.manual_seed(0)
    model = nn.Linear(4, 3).to(DEVICE)
    with torch.no_grad():
        model.weight.copy_(torch.tensor(INPUT["w"], device=DEVICE))
        model.bias.copy_(torch.tensor(INPUT["b"], device=DEVICE))
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    scaler = torch.cuda.amp.GradScaler(enabled=True) if mixed else None
    features = torch.tensor(INPUT["x"], device=DEVICE)
    labels = torch.tensor(INPUT["y"], device=DEVICE)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        if mixed:
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = F.cross_entropy(model(features), labels)
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            scaler.step(opt)
            scaler.update()
        else:
            loss = F.cross_entropy(model(features), labels)
            loss.backward()
            opt.step()
        losses.append(loss.item())
    out = {
        "losses": losses,
        "weight": model.weight.detach().cpu().reshape(-1).tolist(),
        "bias": model.bias.detach().cpu().tolist(),
        "weight_grad": model.weight.grad.cpu().reshape(-1).tolist(),
    }
    if mixed:
        out["scaler"] = [scaler.get_scale(), scaler.is_enabled(), scaler.state_dict()]
    return out


@torch.autocast(device_type="cuda")
def decorated(t):
    return t * 2


with torch.cuda.amp.autocast():
    inside = torch.is_autocast_enabled()

RESULT = {
    "flags": flags,
    "errors": errors,
    "reprs": reprs,
    "plain": train(False),
    "mixed": train(True),
    "decorated": decorated(torch.tensor([1.5], device=DEVICE)).cpu().tolist(),
    "inside_autocast": inside,
}
