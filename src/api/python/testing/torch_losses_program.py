"""The program torch-losses.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU): the losses of ``torch.nn`` and
``torch.nn.functional`` with every ``reduction`` and option (class weights, ignore_index,
label_smoothing, class-probability targets, pos_weight, beta, delta, log_target), their values and
input gradients on the same random inputs, and the modules' reprs and buffers.
It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` and ``DEVICE`` under ours. A test fixture, not an installed package.
"""

import torch
import torch.nn.functional as F
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def t(name, shape=None):
    value = torch.tensor(INPUT[name], device=DEVICE)
    return value if shape is None else value.reshape(shape)


def run(fn, name, shape):
    """fn's value at INPUT[name] (as ``shape``) and the input's gradient of a weighted sum of it."""
    x = t(name, shape).requires_grad_()
    y = fn(x).reshape(-1)
    (y * t("upstream")[: y.shape[0]]).sum().backward()
    return {"y": y.detach().cpu().tolist(), "grad": x.grad.reshape(-1).cpu().tolist()}


REDUCTIONS = ["none", "mean", "sum"]
labels = t("labels")
ignored = t("labels_ignored")
labels3 = t("labels3", (2, 2))
weight = t("class_weight")
probs = t("probs", (4, 3))
target = t("target", (4, 3))
binary = t("binary", (4, 3))
pos_weight = t("pos_weight")
log_probs = t("log_target", (4, 3))

CASES = {}
for r in REDUCTIONS:
    CASES[f"F.cross_entropy({r})"] = (lambda x, r=r: F.cross_entropy(x, labels, reduction=r), "logits", (4, 3))
    CASES[f"F.cross_entropy(weight, {r})"] = (
        lambda x, r=r: F.cross_entropy(x, labels, weight=weight, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"F.cross_entropy(ignore_index, {r})"] = (
        lambda x, r=r: F.cross_entropy(x, ignored, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"F.cross_entropy(ignore_index=1, weight, {r})"] = (
        lambda x, r=r: F.cross_entropy(x, labels, weight=weight, ignore_index=1, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"F.cross_entropy(label_smoothing, {r})"] = (
        lambda x, r=r: F.cross_entropy(x, labels, label_smoothing=0.1, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"nn.CrossEntropyLoss(weight, ignore, smoothing, {r})"] = (
        lambda x, r=r: nn.CrossEntropyLoss(weight=weight, label_smoothing=0.2, reduction=r)(x, ignored),
        "logits",
        (4, 3),
    )
    CASES[f"F.cross_entropy(probabilities, {r})"] = (
        lambda x, r=r: F.cross_entropy(x, probs, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"F.cross_entropy(probabilities, weight, smoothing, {r})"] = (
        lambda x, r=r: F.cross_entropy(x, probs, weight=weight, label_smoothing=0.1, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"F.cross_entropy([N, C, d], {r})"] = (
        lambda x, r=r: F.cross_entropy(x, labels3, weight=weight, reduction=r),
        "logits",
        (2, 3, 2),
    )
    CASES[f"F.nll_loss({r})"] = (lambda x, r=r: F.nll_loss(x, labels, reduction=r), "logits", (4, 3))
    CASES[f"nn.NLLLoss(weight, ignore_index, {r})"] = (
        lambda x, r=r: nn.NLLLoss(weight=weight, reduction=r)(x, ignored),
        "logits",
        (4, 3),
    )
    CASES[f"F.binary_cross_entropy({r})"] = (
        lambda x, r=r: F.binary_cross_entropy(x, binary, reduction=r),
        "p",
        (4, 3),
    )
    CASES[f"nn.BCELoss(weight, {r})"] = (
        lambda x, r=r: nn.BCELoss(weight=weight, reduction=r)(x, binary),
        "p",
        (4, 3),
    )
    CASES[f"F.binary_cross_entropy_with_logits({r})"] = (
        lambda x, r=r: F.binary_cross_entropy_with_logits(x, binary, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"nn.BCEWithLogitsLoss(weight, pos_weight, {r})"] = (
        lambda x, r=r: nn.BCEWithLogitsLoss(weight=weight, pos_weight=pos_weight, reduction=r)(x, binary),
        "logits",
        (4, 3),
    )
    CASES[f"F.mse_loss({r})"] = (lambda x, r=r: F.mse_loss(x, target, reduction=r), "logits", (4, 3))
    CASES[f"nn.L1Loss({r})"] = (lambda x, r=r: nn.L1Loss(reduction=r)(x, target), "logits", (4, 3))
    CASES[f"F.smooth_l1_loss({r})"] = (lambda x, r=r: F.smooth_l1_loss(x, target, reduction=r), "logits", (4, 3))
    CASES[f"nn.SmoothL1Loss(beta=0.5, {r})"] = (
        lambda x, r=r: nn.SmoothL1Loss(reduction=r, beta=0.5)(x, target),
        "logits",
        (4, 3),
    )
    CASES[f"F.huber_loss({r})"] = (lambda x, r=r: F.huber_loss(x, target, reduction=r), "logits", (4, 3))
    CASES[f"nn.HuberLoss(delta=0.7, {r})"] = (
        lambda x, r=r: nn.HuberLoss(reduction=r, delta=0.7)(x, target),
        "logits",
        (4, 3),
    )
for r in REDUCTIONS + ["batchmean"]:
    CASES[f"F.kl_div({r})"] = (
        lambda x, r=r: F.kl_div(F.log_softmax(x, dim=1), probs, reduction=r),
        "logits",
        (4, 3),
    )
    CASES[f"nn.KLDivLoss(log_target=True, {r})"] = (
        lambda x, r=r: nn.KLDivLoss(reduction=r, log_target=True)(F.log_softmax(x, dim=1), log_probs),
        "logits",
        (4, 3),
    )

RESULT = {"cases": {name: run(fn, source, shape) for name, (fn, source, shape) in CASES.items()}}

RESULT["reprs"] = [
    repr(nn.CrossEntropyLoss(weight=torch.ones(3))),
    repr(nn.NLLLoss()),
    repr(nn.BCELoss()),
    repr(nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))),
    repr(nn.L1Loss()),
    repr(nn.MSELoss()),
    repr(nn.SmoothL1Loss(beta=0.5)),
    repr(nn.HuberLoss(delta=2.0)),
    repr(nn.KLDivLoss(reduction="batchmean")),
]
module = nn.BCEWithLogitsLoss(weight=torch.ones(3), pos_weight=torch.full((3,), 2.0))
RESULT["buffers"] = sorted(module.state_dict().keys())
RESULT["fields"] = [
    nn.CrossEntropyLoss(ignore_index=3, label_smoothing=0.25).ignore_index,
    nn.CrossEntropyLoss(ignore_index=3, label_smoothing=0.25).label_smoothing,
    nn.CrossEntropyLoss(reduction="sum").reduction,
    nn.SmoothL1Loss(beta=0.5).beta,
    nn.HuberLoss(delta=2.0).delta,
    nn.KLDivLoss(log_target=True).log_target,
]


def run_pair(fn, shape):
    """fn of two inputs (x1 = INPUT logits, x2 = INPUT target) and both inputs' gradients."""
    a = t("logits", shape).requires_grad_()
    c = t("target", shape).requires_grad_()
    y = fn(a, c).reshape(-1)
    (y * t("upstream")[: y.shape[0]]).sum().backward()
    grads = a.grad.reshape(-1).cpu().tolist() + c.grad.reshape(-1).cpu().tolist()
    return {"y": y.detach().cpu().tolist(), "grad": grads}


def run_prelu(module_or_weight, shape):
    """PReLU's value and the gradients of its input and weight."""
    x = t("logits", shape).requires_grad_()
    if isinstance(module_or_weight, nn.Module):
        module = module_or_weight.to(DEVICE)
        y, weight = module(x), module.weight
    else:
        weight = module_or_weight.to(DEVICE).requires_grad_()
        y = F.prelu(x, weight)
    y = y.reshape(-1)
    (y * t("upstream")[: y.shape[0]]).sum().backward()
    grads = x.grad.reshape(-1).cpu().tolist() + weight.grad.reshape(-1).cpu().tolist()
    return {"y": y.detach().cpu().tolist(), "grad": grads}


zero_row = torch.tensor([[0.0, 0.0, 0.0]], device=DEVICE)
EXTRAS = {
    "nn.PReLU()": run_prelu(nn.PReLU(), (4, 3)),
    "nn.PReLU(3, init=0.1)": run_prelu(nn.PReLU(3, init=0.1), (4, 3)),
    "nn.PReLU(3) on [2, 3, 2]": run_prelu(nn.PReLU(3), (2, 3, 2)),
    "F.prelu": run_prelu(torch.tensor([0.3, -0.2, 0.6]), (4, 3)),
    "torch.prelu": {"y": torch.prelu(t("logits", (4, 3)), torch.tensor([0.2], device=DEVICE)).cpu().tolist()},
    "F.normalize": run(lambda x: F.normalize(x), "logits", (4, 3)),
    "F.normalize(p=1, dim=0)": run(lambda x: F.normalize(x, p=1.0, dim=0), "logits", (4, 3)),
    "F.normalize(dim=-1) of a zero row": {"y": F.normalize(zero_row, dim=-1).cpu().tolist()},
    "F.cosine_similarity": run_pair(lambda a, c: F.cosine_similarity(a, c), (4, 3)),
    "F.cosine_similarity(dim=0)": run_pair(lambda a, c: F.cosine_similarity(a, c, dim=0), (4, 3)),
    "nn.CosineSimilarity(dim=-1)": run_pair(lambda a, c: nn.CosineSimilarity(dim=-1)(a, c), (2, 3, 2)),
    "F.cosine_similarity broadcast": run_pair(lambda a, c: F.cosine_similarity(a, c[:1]), (4, 3)),
    "nn.Unflatten": run(lambda x: nn.Unflatten(1, (2, 2))(x) * 2, "logits", (3, 4)),
    "nn.Softmax(dim=1)": run(nn.Softmax(dim=1), "logits", (4, 3)),
    "nn.Softmax(dim=0)": run(nn.Softmax(dim=0), "logits", (4, 3)),
    "nn.LogSoftmax(dim=1)": run(nn.LogSoftmax(dim=1), "logits", (4, 3)),
    "F.dropout(p=0)": run(lambda x: F.dropout(x, 0.0), "logits", (4, 3)),
    "nn.Dropout eval": run(nn.Dropout(0.5).eval(), "logits", (4, 3)),
}
hot = F.one_hot(t("labels"))
RESULT["extras"] = EXTRAS
RESULT["one_hot"] = [
    hot.cpu().tolist(),
    str(hot.dtype),
    F.one_hot(t("labels3", (2, 2)), num_classes=4).cpu().tolist(),
    list(F.one_hot(t("labels"), 5).shape),
]
RESULT["extra_reprs"] = [
    repr(nn.PReLU()),
    repr(nn.PReLU(num_parameters=3)),
    repr(nn.CosineSimilarity(dim=0)),
    repr(nn.Unflatten(1, (2, 2))),
    repr(nn.Unflatten(-1, (4,))),
    repr(nn.Softmax(dim=1)),
    repr(nn.LogSoftmax(dim=1)),
    repr(nn.Dropout(0.3)),
    repr(nn.Sequential(nn.Linear(4, 4), nn.PReLU(), nn.Unflatten(1, (2, 2)))),
]
RESULT["prelu_state"] = sorted(nn.PReLU(3).state_dict().keys())

# grad_fn as PyTorch names the losses it computes as one op (tutorials print it), every reduction.
_x = t("logits", (4, 3)).requires_grad_()
_p = torch.sigmoid(_x)
RESULT["grad_fns"] = [
    type(fn(r).grad_fn).__name__
    for r in REDUCTIONS
    for fn in (
        lambda r: F.binary_cross_entropy_with_logits(_x, binary, reduction=r),
        lambda r: F.binary_cross_entropy(_p, binary, reduction=r),
        lambda r: F.mse_loss(_x, target, reduction=r),
        lambda r: F.smooth_l1_loss(_x, target, reduction=r),
        lambda r: F.huber_loss(_x, target, reduction=r),
        lambda r: F.nll_loss(F.log_softmax(_x, 1), labels, reduction=r),
        lambda r: F.cross_entropy(_x, labels, reduction=r),
        lambda r: F.cross_entropy(_x, labels, weight=weight, reduction=r),
    )
]
