"""The program torch-optim.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch 1.13, CPU): each optimizer with each option
that changes its math, 3 steps on a small two-layer model from the same weights and data (the
weights after each step); parameter groups; state_dict round trips; reprs; every learning-rate
schedule's lr sequence; and torch.nn.utils' gradient clipping. It leaves them in ``RESULT``.

The test defines ``INPUT`` (``w1`` [3, 4], ``b1`` [3], ``w2`` [2, 3], ``b2`` [2], ``x`` [5, 4],
``y`` [5, 2], ``parts``: which of ``PARTS`` to run) and ``DEVICE`` under ours. A test fixture, not an installed package.
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


class MySGD(optim.Optimizer):
    """An optimizer written in Python over the base class, as courses write one."""

    def __init__(self, params, lr=0.1, momentum=0.5):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "buf" not in state:
                    state["buf"] = p.grad.clone()
                else:
                    state["buf"].mul_(group["momentum"]).add_(p.grad)
                p.sub_(state["buf"] * group["lr"])


OPTIMIZERS["Python subclass of Optimizer"] = lambda p: MySGD(p)
GROUPED = {
    "SGD groups": lambda g: optim.SGD(g, lr=0.1, momentum=0.9),
    "Adam groups": lambda g: optim.Adam(g, lr=0.01),
    "RMSprop groups": lambda g: optim.RMSprop(g, lr=0.01, momentum=0.3),
    "Python subclass groups": lambda g: MySGD(g, momentum=0.9),
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
    by_param = sorted(opt.state[params[1]])  # the state dict by parameter
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
    return {"keys": keys, "by_param": by_param, "weights": flat(fresh), "groups": groups}


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
        repr(MySGD([{"params": p[:2], "lr": 0.5}, {"params": p[2:]}])),
        str(sorted(MySGD(p).state_dict())),
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


def schedule(make_opt, make_sched, steps=25, metrics=None, groups=False):
    """The lrs (and momentum or beta1) of every group after each of `steps` scheduler steps."""
    params = model()
    opt = make_opt([{"params": params[:2]}, {"params": params[2:], "lr": 0.05}] if groups else params)
    sched = make_sched(opt)
    current = lambda: [g["lr"] for g in opt.param_groups]  # noqa: E731
    lrs, momenta, last_lrs = [current()], [], []
    for i in range(steps):
        opt.step()
        if metrics is None:
            sched.step()
            last_lrs.append(list(sched.get_last_lr()) == current())
        else:
            sched.step(torch.tensor(metrics[i]) if i % 2 else metrics[i])  # a loss tensor or a float
        lrs.append(current())
        g = opt.param_groups[0]
        momenta.append(g["betas"][0] if "betas" in g else g.get("momentum", 0.0))
    flat_lrs = [v for row in lrs for v in row]
    return {
        "lrs": flat_lrs,
        "momenta": momenta,
        "get_last_lr": all(last_lrs),
        "last_epoch": getattr(sched, "last_epoch", None),
    }


sched = optim.lr_scheduler
sgd = lambda p: optim.SGD(p, lr=0.1, momentum=0.9)  # noqa: E731
adam = lambda p: optim.Adam(p, lr=0.01)  # noqa: E731
PLATEAU = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.8, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9] * 2
SCHEDULES = {
    "StepLR": (sgd, lambda o: sched.StepLR(o, step_size=4, gamma=0.5)),
    "MultiStepLR": (sgd, lambda o: sched.MultiStepLR(o, milestones=[3, 7, 7, 15], gamma=0.3)),
    "ExponentialLR": (sgd, lambda o: sched.ExponentialLR(o, gamma=0.9)),
    "CosineAnnealingLR": (sgd, lambda o: sched.CosineAnnealingLR(o, T_max=8, eta_min=0.001)),
    "LambdaLR": (sgd, lambda o: sched.LambdaLR(o, lambda e: 1 / (1 + e))),
    "MultiplicativeLR": (sgd, lambda o: sched.MultiplicativeLR(o, lambda e: 0.95)),
    "LinearLR": (sgd, lambda o: sched.LinearLR(o, start_factor=0.25, total_iters=10)),
    "LinearLR down": (sgd, lambda o: sched.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=7)),
    "ConstantLR": (sgd, lambda o: sched.ConstantLR(o, factor=0.5, total_iters=6)),
    "PolynomialLR": (sgd, lambda o: sched.PolynomialLR(o, total_iters=12, power=2.0)),
    "CosineAnnealingWarmRestarts": (sgd, lambda o: sched.CosineAnnealingWarmRestarts(o, T_0=5, eta_min=0.01)),
    "CosineAnnealingWarmRestarts T_mult": (sgd, lambda o: sched.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)),
    "CyclicLR": (sgd, lambda o: sched.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4)),
    "CyclicLR triangular2": (
        sgd,
        lambda o: sched.CyclicLR(o, 0.01, 0.1, step_size_up=3, step_size_down=5, mode="triangular2"),
    ),
    "CyclicLR exp_range": (
        sgd,
        lambda o: sched.CyclicLR(o, 0.01, 0.1, step_size_up=4, mode="exp_range", gamma=0.9),
    ),
    "CyclicLR Adam": (adam, lambda o: sched.CyclicLR(o, 0.001, 0.01, step_size_up=5, cycle_momentum=False)),
    "OneCycleLR": (sgd, lambda o: sched.OneCycleLR(o, max_lr=0.5, total_steps=25)),
    "OneCycleLR linear": (sgd, lambda o: sched.OneCycleLR(o, max_lr=0.5, total_steps=30, anneal_strategy="linear")),
    "OneCycleLR three_phase": (
        sgd,
        lambda o: sched.OneCycleLR(o, max_lr=0.5, epochs=5, steps_per_epoch=6, three_phase=True),
    ),
    "OneCycleLR Adam": (adam, lambda o: sched.OneCycleLR(o, max_lr=0.01, total_steps=25, pct_start=0.4)),
    "SequentialLR": (
        sgd,
        lambda o: sched.SequentialLR(
            o, [sched.LinearLR(o, start_factor=0.1, total_iters=5), sched.ExponentialLR(o, gamma=0.9)], milestones=[5]
        ),
    ),
    "ChainedScheduler": (
        sgd,
        lambda o: sched.ChainedScheduler(
            [sched.ConstantLR(o, factor=0.1, total_iters=2), sched.ExponentialLR(o, gamma=0.9)]
        ),
    ),
}
GROUPED_SCHEDULES = {
    "StepLR groups": (sgd, lambda o: sched.StepLR(o, step_size=3)),
    "OneCycleLR groups": (sgd, lambda o: sched.OneCycleLR(o, max_lr=[0.5, 0.2], total_steps=25)),
    "LambdaLR groups": (sgd, lambda o: sched.LambdaLR(o, [lambda e: 0.9**e, lambda e: 1 + e])),
}
PLATEAUS = {
    "ReduceLROnPlateau": lambda o: sched.ReduceLROnPlateau(o, patience=2),
    "ReduceLROnPlateau max abs": lambda o: sched.ReduceLROnPlateau(
        o, mode="max", factor=0.5, patience=1, threshold=0.01, threshold_mode="abs", cooldown=2, min_lr=0.02
    ),
    "ReduceLROnPlateau eps": lambda o: sched.ReduceLROnPlateau(o, factor=0.5, patience=0, eps=0.02),
}


def scheduler_state():
    params = model()
    opt = sgd(params)
    s = sched.OneCycleLR(opt, max_lr=0.5, total_steps=25)
    for _ in range(4):
        opt.step()
        s.step()
    saved = s.state_dict()
    return {
        "keys": sorted(saved),
        "last_epoch": saved["last_epoch"],
        "initial_lr": opt.param_groups[0]["initial_lr"],
        "repr": repr(opt),
    }


def clipping():
    """clip_grad_norm_'s total norm and clipped grads per norm type; clip_grad_value_; vectors."""
    from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

    def grads_after(clip):
        params = model()
        loss_of(params).backward()
        total = clip(params)
        grads = [v for p in params for v in p.grad.cpu().reshape(-1).tolist()]
        return {"total": None if total is None else float(total), "grads": grads}

    out = {}
    for norm_type in (2.0, 1, float("inf"), 3.0):
        for max_norm in (0.05, 100.0):
            out[f"norm {norm_type} max {max_norm}"] = grads_after(
                lambda ps, n=norm_type, m=max_norm: clip_grad_norm_(ps, m, norm_type=n)
            )
    out["one tensor"] = grads_after(lambda ps: torch.nn.utils.clip_grad_norm_(ps[2], 0.1))
    out["value"] = grads_after(lambda ps: clip_grad_value_(ps, 0.02))
    params = model()
    vec = parameters_to_vector(params)
    vector_to_parameters(vec * 2 - 0.5, params)
    bad = model()
    loss_of(bad).backward()
    bad[0].grad.fill_(float("inf"))
    try:
        clip_grad_norm_(bad, 1.0, error_if_nonfinite=True)
        error = "no error"
    except RuntimeError as e:
        error = str(e)
    return {
        "clip": out,
        "vector": vec.detach().cpu().tolist(),
        "vector_shape": list(vec.shape),
        "vector_back": flat(params),
        "nonfinite": error,
    }


PARTS = {
    # SGD and Adam's family, then the others: two runs, each under the test timeout on WebGPU.
    "optimizers_a": lambda: {n: train(make) for n, make in OPTIMIZERS.items() if n.startswith(("SGD", "Adam"))},
    "optimizers_b": lambda: {n: train(make) for n, make in OPTIMIZERS.items() if not n.startswith(("SGD", "Adam"))},
    "groups": lambda: {name: train(make, groups=True) for name, make in GROUPED.items()},
    "state_dicts": lambda: {
        "SGD": state_round_trip(lambda p: optim.SGD(p, lr=0.1, momentum=0.9)),
        "Adam": state_round_trip(lambda p: optim.Adam(p, lr=0.01, amsgrad=True)),
        "AdamW": state_round_trip(lambda p: optim.AdamW(p, lr=0.01)),
        "RMSprop": state_round_trip(lambda p: optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5)),
        "Adagrad": state_round_trip(lambda p: optim.Adagrad(p, lr=0.1)),
    },
    "zero_grad": zero_grad_modes,
    "schedules": lambda: {name: schedule(o, s) for name, (o, s) in SCHEDULES.items()},
    "grouped_schedules": lambda: {name: schedule(o, s, groups=True) for name, (o, s) in GROUPED_SCHEDULES.items()},
    "plateaus": lambda: {name: schedule(sgd, s, metrics=PLATEAU, groups=True) for name, s in PLATEAUS.items()},
    "scheduler_state": scheduler_state,
    "clipping": clipping,
    "reprs": reprs,
    "errors": errors,
}
# The test asks for some parts per run (each run is one test, under the test timeout).
RESULT = {part: PARTS[part]() for part in INPUT.get("parts", PARTS)}
