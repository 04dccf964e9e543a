"""``torch.optim``: the engine's optimizers (one update core, src/engine/optim) with PyTorch's
signatures. ``param_groups`` are live views of the engine's groups, so ``group['lr'] = …``
changes the rate the next ``step()`` uses."""

from collections.abc import MutableMapping

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
    def __init__(self, js):
        self._js = js

    def __getitem__(self, key):
        if key == "params":
            return [b.from_js(p, fresh=False) for p in self._js.params]
        value = getattr(self._js, b.camel(key), None)
        if value is None:
            raise KeyError(key)
        return value.to_py() if isinstance(value, b.JsProxy) else value

    def __setitem__(self, key, value):
        if key == "params":
            raise KeyError("params cannot be replaced")
        setattr(self._js, b.camel(key), b.to_js_value(value))

    def __delitem__(self, key):
        raise KeyError(key)

    def __iter__(self):
        import js

        for key in js.Object.keys(self._js):
            yield "params" if key == "params" else _snake(key)

    def __len__(self):
        import js

        return len(js.Object.keys(self._js))

    def __repr__(self):
        return repr(dict(self))


def _snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


class Optimizer:
    _js_name = None

    def __init__(self, params, *args, **kwargs):
        for name in _IGNORED:
            kwargs.pop(name, None)
        self._js = b.new(getattr(_optim, self._js_name), _params(params), *args, **kwargs)

    @property
    def param_groups(self):
        return [_ParamGroup(g) for g in self._js.paramGroups]

    @property
    def defaults(self):
        return self._js.defaults.to_py()

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
        return loss

    def state_dict(self):
        raise NotImplementedError(
            f"{type(self).__name__}.state_dict() is not supported yet: save the model's "
            "state_dict (torch.save(net.state_dict(), path)) and make a new optimizer"
        )

    def load_state_dict(self, state_dict):
        self.state_dict()

    def add_param_group(self, param_group):
        b.call(self._js.addParamGroup, _params([param_group])[0])

    def __repr__(self):
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


class SGD(Optimizer):
    _js_name = "SGD"


class Adam(Optimizer):
    _js_name = "Adam"


class NAdam(Optimizer):
    _js_name = "NAdam"


from . import lr_scheduler  # noqa: E402, F401  torch.optim.lr_scheduler, after the optimizers
