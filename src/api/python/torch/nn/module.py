"""``nn.Module`` in Python, as PyTorch's: attribute assignment registers parameters, buffers and
submodules; ``net(x)`` calls ``forward``; printing, state dicts, modes and devices work on the
whole tree. Leaf layers are the engine's (./layers.py); a user's ``class Net(nn.Module)`` is pure
Python over them."""

from collections import OrderedDict, namedtuple

from .. import _bridge as b
from .._tensor import Tensor
from .._types import device as _device
from .parameter import Parameter


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class _RemovableHandle:
    def __init__(self, table, key):
        self._table, self._key = table, key

    def remove(self):
        self._table.pop(self._key, None)


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _device_of(args, kwargs):
    """The device among ``to``'s arguments (a dtype alone leaves the module where it is)."""
    candidates = [kwargs.get("device"), *args]
    for value in candidates:
        if isinstance(value, Tensor):
            return value.device._js_value()
        if isinstance(value, int) and not isinstance(value, bool):
            return f"gpu:{value}"
        if isinstance(value, (str, _device)):
            try:
                return _device(value)._js_value()
            except RuntimeError:
                continue
    return None


class Module:
    training = True

    def __init__(self, *args, **kwargs):
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        output = self.forward(*args, **kwargs)
        hooks = self.__dict__.get("_forward_hooks")
        if hooks:
            for hook in list(hooks.values()):
                result = hook(self, args, output)
                if result is not None:
                    output = result
        return output

    def register_forward_hook(self, hook):
        hooks = self.__dict__.setdefault("_forward_hooks", OrderedDict())
        key = object()
        hooks[key] = hook
        return _RemovableHandle(hooks, key)

    def summary(self, input_shape=None, input_data=None):
        """torchsummary's table (as torchkeras prints it) for one input shape, e.g. (1, 28, 28)."""
        from .summary import summary

        return summary(self, input_shape=input_shape, input_data=input_data)

    # ------------------------------------------------------------------ registration
    def _check_init(self):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign module before Module.__init__() call")

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            self._check_init()
            self._remove(name)
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._check_init()
            self._remove(name)
            self._modules[name] = value
        elif "_parameters" in d and name in self._parameters:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self._parameters[name] = None
        elif "_buffers" in d and name in self._buffers:
            self._buffers[name] = value
        elif "_modules" in d and name in self._modules and value is None:
            self._modules[name] = None
        else:
            object.__setattr__(self, name, value)

    def _remove(self, name):
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            table.pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if any(name in self.__dict__.get(t, {}) for t in ("_parameters", "_buffers", "_modules")):
            self._remove(name)
        else:
            object.__delattr__(self, name)

    def register_parameter(self, name, param):
        self._check_init()
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        self._remove(name)
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        self._check_init()
        self._remove(name)
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)

    def add_module(self, name, module):
        self._check_init()
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._remove(name)
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        module = self
        for part in target.split(".") if target else []:
            module = getattr(module, part)
        return module

    # ------------------------------------------------------------------ the tree
    def named_children(self):
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        memo = set() if memo is None else memo
        if id(self) in memo and remove_duplicate:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is None:
                continue
            yield from m.named_modules(memo, f"{prefix}.{name}" if prefix else name, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def _named_members(self, table, prefix, recurse):
        seen = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for path, m in modules:
            for name, t in getattr(m, table).items():
                if t is None or id(t) in seen:
                    continue
                seen.add(id(t))
                yield (f"{path}.{name}" if path else name), t

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        for _, t in self.named_buffers(recurse=recurse):
            yield t

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ modes and devices
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad._op("zero_")

    def to(self, *args, **kwargs):
        """Moves every parameter and buffer in place (the same Parameter objects), as PyTorch."""
        target = _device_of(args, kwargs)
        if target is None:
            return self
        for _, m in self.named_modules():
            for t in list(m._parameters.values()) + list(m._buffers.values()):
                if t is not None:
                    b.call(b.host.moveInPlace, t, target)
        return self

    def cuda(self, device=None):
        return self.to(f"gpu:{device or 0}" if not isinstance(device, (str, _device)) else device)

    def cpu(self):
        return self.to("cpu")

    def float(self):
        return self

    double = float
    half = float

    # ------------------------------------------------------------------ state
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        out = OrderedDict() if destination is None else destination
        for path, m in self.named_modules(prefix=prefix.rstrip(".")):
            entries = list(m._parameters.items()) + [
                (n, t) for n, t in m._buffers.items() if n not in m._non_persistent
            ]
            for name, t in entries:
                if t is not None:
                    out[f"{path}.{name}" if path else name] = t if keep_vars else t.detach()
        return out

    def load_state_dict(self, state_dict, strict=True, assign=False):
        targets = self.state_dict(keep_vars=True)
        missing = [k for k in targets if k not in state_dict]
        unexpected = [k for k in state_dict if k not in targets]
        errors = []
        for key, target in targets.items():
            if key not in state_dict:
                continue
            source = state_dict[key]
            if tuple(source.shape) != tuple(target.shape):
                errors.append(
                    f"size mismatch for {key}: copying a param with shape {source.shape} from "
                    f"checkpoint, the shape in current model is {target.shape}."
                )
        if strict:
            if unexpected:
                errors.insert(
                    0,
                    "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ",
                )
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        from .._grad_mode import no_grad

        with no_grad():
            for key, target in targets.items():
                if key in state_dict:
                    target._op("copy_", state_dict[key].to(target.device))
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------ printing
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): {_addindent(repr(m), 2)}" for key, m in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))
