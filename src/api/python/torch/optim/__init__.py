"""``torch.optim``: the engine's optimizers (one update core, src/engine/optim) with PyTorch's
signatures. ``param_groups`` are live views of the engine's groups, so ``group['lr'] = …``
changes the rate the next ``step()`` uses. ``Optimizer`` is PyTorch's Python base class, for
optimizers written in Python."""

from collections.abc import Mapping, MutableMapping

from .. import _bridge as b
from .._tensor import Tensor

_optim = b.host.torch.optim
_IGNORED = ("foreach", "fused", "capturable", "differentiable")


def _params(params):
    """Parameters, or parameter groups (dicts), as the engine takes them."""
    items = list(params)
    if not items:
        raise ValueError("optimizer got an empty parameter list")
    if isinstance(items[0], dict):
        groups = []
        for group in items:
            g = {b.camel(k): v for k, v in group.items() if k != "params"}
            ps = group["params"]
            g["params"] = [ps] if isinstance(ps, Tensor) else list(ps)
            groups.append(g)
        return groups
    return items


class _ParamGroup(MutableMapping):
    """One engine group as PyTorch's dict. ``compat``: keys PyTorch 1.13 keeps that change no
    math here (``foreach``, ``fused``, …); ``shadow``: the Python values last given, so that
    ``lr=1.0`` reads back as ``1.0`` (JavaScript has one number type) and betas as a tuple."""

    def __init__(self, js, compat, shadow):
        self._js = js
        self._compat = compat
        self._shadow = shadow

    def __getitem__(self, key):
        if key == "params":
            return [b.from_js(p, fresh=False) for p in self._js.params]
        value = getattr(self._js, b.camel(key), None)
        if value is None:
            if key in self._compat:
                return self._compat[key]
            raise KeyError(key)
        value = value.to_py() if isinstance(value, b.JsProxy) else value
        if isinstance(value, list):
            value = tuple(value)
        given = self._shadow.get(key)
        return given if given is not None and given == value else value

    def __setitem__(self, key, value):
        if key == "params":
            raise KeyError("params cannot be replaced")
        if key in self._compat:
            self._compat[key] = value
            return
        self._shadow[key] = value
        setattr(self._js, b.camel(key), b.to_js_value(value))

    def __delitem__(self, key):
        raise KeyError(key)

    def __iter__(self):
        import js

        keys = ["params" if key == "params" else _snake(key) for key in js.Object.keys(self._js)]
        yield from keys
        yield from (k for k in self._compat if k not in keys)

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        return repr(dict(self))


def _snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


class Optimizer:
    """PyTorch's base class, for optimizers written in Python (``class MySGD(Optimizer)`` with its
    own ``step``): ``param_groups`` are dicts, ``state`` a dict per parameter, as in PyTorch. The
    engine's optimizers below subclass it (so ``isinstance(opt, Optimizer)`` holds) but keep their
    groups and state in the engine."""

    # Keys not shown in groups and reprs (an engine option PyTorch 1.13's class lacks).
    _hidden = ()

    def __init__(self, params, defaults):
        from collections import defaultdict

        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, "
                f"but got {type(params).__name__}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        params = param_group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = {**self.defaults, **param_group, "params": params}
        seen = {id(q) for g in self.param_groups for q in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def state_dict(self):
        index = {}
        groups = []
        for group in self.param_groups:
            out = {k: v for k, v in group.items() if k != "params"}
            out["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(out)
        params = [p for g in self.param_groups for p in g["params"]]
        state = {index[id(p)]: dict(self.state[p]) for p in params if p in self.state}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        params = [p for g in self.param_groups for p in g["params"]]
        for group, saved in zip(self.param_groups, groups):
            if len(saved["params"]) != len(group["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
                )
            group.update({k: v for k, v in saved.items() if k != "params"})
        self.state.clear()
        for i, saved in state_dict["state"].items():
            self.state[params[int(i)]] = dict(saved)

    def __repr__(self):
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            if i:
                lines.append("")
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params" and k not in self._hidden):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


class _StateView(Mapping):
    """An engine optimizer's ``state`` as PyTorch's dict by parameter: a read-only snapshot (copies
    of the state tensors, as ``state_dict()`` gives them); a parameter without state reads ``{}``,
    as PyTorch's defaultdict does."""

    def __init__(self, params, saved):
        self._params = params
        self._saved = saved

    def __getitem__(self, param):
        js = getattr(param, "_js", None)
        for i, p in enumerate(self._params):
            if js is not None and p._js == js:  # the same engine tensor (wrappers are per call)
                return self._saved.get(i, {})
        raise KeyError(param)

    def __iter__(self):
        return (self._params[i] for i in sorted(self._saved))

    def __len__(self):
        return len(self._saved)


class _EngineOptimizer(Optimizer):
    """An optimizer of the engine's core: groups and state live in the engine."""

    _js_name = None
    # Keys PyTorch 1.13's class keeps in its groups that change nothing here, with its defaults.
    _compat = {"foreach": None}
    # Engine options PyTorch 1.13's class lacks (hidden from its groups and repr).
    _hidden = ()
    # Whether PyTorch keeps a 'step' in each parameter's state (SGD does not).
    _has_step = True

    def __init__(self, params, *args, **kwargs):
        compat = dict(self._compat)
        for name in _IGNORED:
            value = kwargs.pop(name, None)
            if name in compat and value is not None:
                compat[name] = value
        groups = _params(params)
        try:
            self._js = b.new(getattr(_optim, self._js_name), groups, *args, **kwargs)
        except IndexError as error:  # the engine's RangeError: a hyperparameter out of range
            raise ValueError(str(error)) from None
        self._compat_values = []
        self._shadows = []
        given = {k: v for k, v in kwargs.items() if v is not None}
        for group in groups if isinstance(groups[0], dict) else [{}]:
            self._compat_values.append(dict(compat))
            self._shadows.append({**given, **{_snake(k): v for k, v in group.items() if k != "params"}})

    @property
    def param_groups(self):
        return [_ParamGroup(g, self._compat_values[i], self._shadows[i]) for i, g in enumerate(self._js.paramGroups)]

    @property
    def defaults(self):
        values = {_snake(k): v for k, v in self._js.defaults.to_py().items() if _snake(k) not in self._hidden}
        return {**values, **self._compat}

    @property
    def state(self):
        params = [p for g in self.param_groups for p in g["params"]]
        return _StateView(params, self.state_dict()["state"])

    def zero_grad(self, set_to_none=True):
        if set_to_none:
            self._js.zeroGrad()  # the engine's default is PyTorch's: grads to None
        else:
            b.call(self._js.zeroGrad, set_to_none=False)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad

            with enable_grad():
                loss = closure()
        b.call(self._js.step)
        # Counted for the schedulers' "scheduler.step() before optimizer.step()" warning.
        self._step_count = getattr(self, "_step_count", 0) + 1
        return loss

    def state_dict(self):
        """PyTorch's layout: ``state`` by parameter index (copies of the engine's state tensors,
        ``step`` as a float tensor) and ``param_groups`` with parameters as indices."""
        import torch

        js = self._js.stateDict()
        state = {}
        for key in js.state.object_keys():
            entry = getattr(js.state, key)
            saved = {}
            if self._has_step:
                saved["step"] = torch.tensor(float(entry.step))
            for name in entry.tensors.object_keys():
                saved[_snake(name)] = b.from_js(getattr(entry.tensors, name))
            for name in entry.scalars.object_keys():
                saved[_snake(name)] = getattr(entry.scalars, name)
            state[int(key)] = saved
        groups = []
        for group, js_group in zip(self.param_groups, js.paramGroups):
            out = {k: group[k] for k in group if k != "params" and k not in self._hidden}
            out["params"] = list(js_group.params.to_py())
            groups.append(out)
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        from .._tensor import Tensor as _T

        groups = state_dict["param_groups"]
        js_state = {}
        for index, saved in state_dict["state"].items():
            step = saved.get("step", 0)
            entry = {"step": float(step.item() if isinstance(step, _T) else step), "tensors": {}, "scalars": {}}
            for name, value in saved.items():
                if name == "step":
                    continue
                kind = "tensors" if isinstance(value, _T) else "scalars"
                entry[kind][b.camel(name)] = value
            js_state[str(index)] = entry
        js_groups = []
        for i, group in enumerate(groups):
            js_group = {}
            for k, v in group.items():
                if k == "params":
                    js_group["params"] = list(v)
                elif i < len(self._compat_values) and k in self._compat_values[i]:
                    self._compat_values[i][k] = v
                else:
                    js_group[b.camel(k)] = v
                    if i < len(self._shadows):
                        self._shadows[i][k] = v
            js_groups.append(js_group)
        b.call(self._js.loadStateDict, {"state": js_state, "paramGroups": js_groups})

    def add_param_group(self, param_group):
        b.call(self._js.addParamGroup, _params([param_group])[0])
        self._compat_values.append(dict(self._compat_values[0]))
        given = {k: v for k, v in param_group.items() if k != "params"}
        self._shadows.append({**{k: v for k, v in self._shadows[0].items() if k not in given}, **given})


class SGD(_EngineOptimizer):
    _js_name = "SGD"
    _compat = {"foreach": None, "differentiable": False}
    _has_step = False


class Adam(_EngineOptimizer):
    _js_name = "Adam"
    _compat = {"foreach": None, "capturable": False, "differentiable": False, "fused": False}


class AdamW(_EngineOptimizer):
    _js_name = "AdamW"
    _compat = {"foreach": None, "capturable": False}


class NAdam(_EngineOptimizer):
    _js_name = "NAdam"
    # 1.13's NAdam has neither option (later PyTorch added them); they stay usable here.
    _hidden = ("maximize", "decoupled_weight_decay")


class RMSprop(_EngineOptimizer):
    _js_name = "RMSprop"
    _compat = {"foreach": None, "differentiable": False}


class Adagrad(_EngineOptimizer):
    _js_name = "Adagrad"


from . import lr_scheduler  # noqa: E402, F401  torch.optim.lr_scheduler, after the optimizers
