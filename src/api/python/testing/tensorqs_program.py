"""The program tensorqs.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on WebGPU)
and under real PyTorch (Debian's python3-torch, CPU): the lines of PyTorch's tensors tutorial
(pytorch/tutorials, beginner_source/basics/tensorqs_tutorial.py) and of the GPU chapter (seed 004,
"6-3 使用GPU训练模型") that need no numpy, first verbatim (what they print), then on the test's
seeded random data (the values they compute). Sizes are small. A test fixture, not a package.

The test defines ``INPUT`` (``matrix``: 4×4 values, ``data``: 2×2 ints, ``a``/``b``: matmul
operands, ``x``/``noise``/``w``/``b0``: a linear regression's data and starting weights) and, under
ours, ``DEVICE``. It leaves ``RESULT``.
"""

import contextlib
import functools
import io
import os
import tempfile
import warnings

import torch
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def printed(fn):
    """What ``fn`` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    return out.getvalue()


def tutorial():
    """The tutorial's lines, verbatim (but for its numpy ones, which the numpy test covers)."""
    data = [[1, 2], [3, 4]]
    x_data = torch.tensor(data)

    x_ones = torch.ones_like(x_data)  # retains the properties of x_data
    print(f"Ones Tensor: \n {x_ones} \n")

    x_rand = torch.rand_like(x_data, dtype=torch.float)  # overrides the datatype of x_data
    print(f"Random Tensor: \n {x_rand} \n")

    shape = (
        2,
        3,
    )
    rand_tensor = torch.rand(shape)
    ones_tensor = torch.ones(shape)
    zeros_tensor = torch.zeros(shape)

    print(f"Random Tensor: \n {rand_tensor} \n")
    print(f"Ones Tensor: \n {ones_tensor} \n")
    print(f"Zeros Tensor: \n {zeros_tensor}")

    tensor = torch.rand(3, 4)

    print(f"Shape of tensor: {tensor.shape}")
    print(f"Datatype of tensor: {tensor.dtype}")
    print(f"Device tensor is stored on: {tensor.device}")

    # We move our tensor to the GPU if available, and if the cuda version is supported
    if torch.cuda.is_available() & (torch.device("cuda").index is not None):
        tensor = tensor.to("cuda")

    tensor = torch.ones(4, 4)
    print("First row: ", tensor[0])
    print("First column: ", tensor[:, 0])
    print("Last column:", tensor[..., -1])
    tensor[:, 1] = 0
    print(tensor)

    t1 = torch.cat([tensor, tensor, tensor], dim=1)
    print(t1)

    # This computes the matrix multiplication between two tensors. y1, y2, y3 will have the same value
    y1 = tensor @ tensor.T
    y2 = tensor.matmul(tensor.T)

    y3 = torch.rand_like(tensor)
    torch.matmul(tensor, tensor.T, out=y3)

    # This computes the element-wise product. z1, z2, z3 will have the same value
    z1 = tensor * tensor
    z2 = tensor.mul(tensor)

    z3 = torch.rand_like(tensor)
    torch.mul(tensor, tensor, out=z3)
    print(y1, y2, y3, z1, z2, z3)  # (not in the tutorial: shows that out= was written)

    agg = tensor.sum()
    agg_item = agg.item()
    print(agg_item, type(agg_item))

    print(tensor, "\n")
    tensor.add_(5)
    print(tensor)

    t = torch.ones(5)
    print(f"t: {t}")
    t.add_(1)
    print(f"t: {t}")


def on_data(values):
    """The tutorial's operations on random data, on DEVICE; prints what PyTorch prints exactly
    (values copied, not computed) and keeps the computed values in ``values``."""
    x_data = torch.tensor(INPUT["data"], device=DEVICE)
    print(x_data, x_data.dtype, torch.ones_like(x_data), torch.zeros_like(x_data).dtype)
    x_rand = torch.rand_like(x_data, dtype=torch.float)
    print(x_rand.shape, x_rand.dtype, x_rand.device == x_data.device)
    values["x_rand"] = x_rand.flatten().tolist()

    tensor = torch.tensor(INPUT["matrix"], device=DEVICE)
    print("First row: ", tensor[0])
    print("First column: ", tensor[:, 0])
    print("Last column:", tensor[..., -1])
    tensor[:, 1] = 0
    print(tensor)
    t1 = torch.cat([tensor, tensor, tensor], dim=1)
    print(t1.shape, t1[:, 4:8].equal(tensor), t1[:, :4].allclose(tensor))

    y1 = tensor @ tensor.T
    y2 = tensor.matmul(tensor.T)
    y3 = torch.rand_like(tensor)
    returned = torch.matmul(tensor, tensor.T, out=y3)
    z1 = tensor * tensor
    z2 = tensor.mul(tensor)
    z3 = torch.rand_like(tensor)
    z3_row = z3[0]  # a view: out= writes into z3's own memory
    torch.mul(tensor, tensor, out=z3)
    same = torch.equal
    print(returned is y3, same(y1, y2), same(y1, y3), same(z1, z2), same(z1, z3), same(z3_row, z1[0]))
    for name, t in (("y1", y1), ("z1", z1), ("t1", t1)):
        values[name] = t.flatten().tolist()

    agg = tensor.sum()
    agg_item = agg.item()
    print(type(agg_item), agg.shape, agg.dtype)
    values["agg"] = [agg_item]

    tensor.add_(5)
    values["add_"] = tensor.flatten().tolist()


def chapter(values):
    """The GPU chapter's lines: devices (which depend on the GPUs, so the test checks them against
    what each side has), a matrix product and a few steps of its linear regression."""
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    print("if_cuda=", torch.cuda.is_available(), "gpu_count=", torch.cuda.device_count())
    tensor = torch.rand((100, 100))
    tensor_gpu = tensor.to(device)
    print(tensor_gpu.device, tensor_gpu.is_cuda, tensor_gpu.to("cpu").device)

    net = nn.Linear(2, 1)
    print(next(net.parameters()).is_cuda)
    net.to(device)
    print(next(net.parameters()).is_cuda, next(net.parameters()).device)

    linear = nn.Linear(2, 1)
    model = nn.DataParallel(linear)
    print(model.device_ids, next(model.module.parameters()).device)
    torch.save(model.module.state_dict(), "model_parameter.pt")
    linear = nn.Linear(2, 1)
    print(linear.load_state_dict(torch.load("model_parameter.pt")))
    print(torch.equal(linear.weight, model.module.weight.to("cpu")))

    a = torch.tensor(INPUT["a"], device=device)
    b = torch.tensor(INPUT["b"])
    b = b.to(device)
    c = torch.matmul(a, b)
    print(c.shape, c.device == a.device)
    values["matmul"] = c.flatten().tolist()

    n = len(INPUT["x"])
    X = 10 * torch.tensor(INPUT["x"]) - 5.0
    w0 = torch.tensor([[2.0, -3.0]])
    b0 = torch.tensor([[10.0]])
    print(torch.normal(0.0, 2.0, size=[n, 1]).shape)
    Y = X @ w0.t() + b0 + torch.tensor(INPUT["noise"])
    X, Y = X.to(device), Y.to(device)

    class LinearRegression(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn_like(w0))
            self.b = nn.Parameter(torch.zeros_like(b0))

        def forward(self, x):
            return x @ self.w.t() + self.b

    linear = LinearRegression()
    print(linear.w.shape, linear.b.tolist())
    linear.load_state_dict({"w": torch.tensor(INPUT["w"]), "b": torch.tensor(INPUT["b0"])})
    linear.to(device)
    print("if on cuda:", next(linear.parameters()).is_cuda)
    optimizer = torch.optim.Adam(linear.parameters(), lr=0.1)
    loss_fn = nn.MSELoss()
    values["losses"] = []
    for _epoch in range(12):
        optimizer.zero_grad()
        Y_pred = linear(X)
        loss = loss_fn(Y_pred, Y)
        loss.backward()
        optimizer.step()
        values["losses"].append(loss.item())
    values["w"] = linear.w.flatten().tolist() + linear.b.flatten().tolist()


def out_rules():
    """PyTorch's rules for ``out=`` beyond the tutorial's use: errors, casts, resizing, views."""

    def error(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001  the test compares the type and message
            print(type(e).__name__, e)

    a = torch.ones(2, 2, requires_grad=True)
    c = torch.zeros(2, 2)
    error(lambda: torch.mul(a, a, out=c))
    error(lambda: torch.cat([a, a], out=c))
    error(lambda: torch.exp(a, out=c))
    for left, right in (((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 2)), ((4, 2, 3), (4, 3, 2))):
        x, y = torch.ones(*left, requires_grad=True), torch.ones(*right)
        error(functools.partial(torch.matmul, x, y, out=torch.empty(0)))
    with torch.no_grad():
        print(torch.mul(a, a, out=c) is c, c.requires_grad, c)
    error(lambda: torch.mul(torch.ones(2, 2), 2.5, out=torch.zeros(2, 2, dtype=torch.long)))
    error(lambda: torch.mul(torch.ones(2, 2), 2, out=torch.ones(2, 2, dtype=torch.bool)))
    error(lambda: torch.mul(torch.ones(2), 2, out=[1]))
    print(torch.mul(torch.ones(2, 2, dtype=torch.long), 3, out=torch.zeros(2, 2)))
    print(torch.eq(torch.ones(2), 1, out=torch.zeros(2)))
    print(torch.add(torch.ones(2), torch.ones(2), alpha=2, out=torch.zeros(2)))
    print(torch.sum(torch.ones(2, 3), 0, out=torch.zeros(3)))
    print(torch.zeros(2, out=torch.ones(2)), torch.cat([torch.ones(1), torch.zeros(1)], out=torch.zeros(2)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        o = torch.zeros(3)
        r = torch.matmul(torch.ones(2, 2), torch.ones(2, 2), out=o)
        print(r is o, o)
        e = torch.empty(0)
        torch.mul(torch.ones(2), 2, out=e)
        print(e)
    for w in caught:
        print(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
    v = torch.zeros(3, 4)
    torch.mul(torch.ones(4), 3, out=v[1])
    print(v)


def run():
    values = {}
    return {
        "device": str(DEVICE),
        "tutorial": printed(tutorial),
        "data": printed(lambda: on_data(values)),
        "chapter": printed(lambda: chapter(values)),
        "out": printed(out_rules),
        "values": values,
    }


_cwd = os.getcwd()
os.chdir(tempfile.mkdtemp())  # torch.save writes a file (real PyTorch: here, not in the repo)
try:
    RESULT = run()
finally:
    os.chdir(_cwd)
