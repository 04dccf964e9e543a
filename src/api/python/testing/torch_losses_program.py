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
