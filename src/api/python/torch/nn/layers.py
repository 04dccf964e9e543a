"""The engine's layers and losses as Python modules, found by name (``engine_module``; torch.nn
looks them up, so an engine module needs no Python line): each holds one engine module (``_js``) and
shows its parameters as Python Parameters (the same engine tensors, so optimizers, ``.to`` and
state dicts see one set of weights). Arguments are PyTorch's, passed on camelCased."""

from .. import _bridge as b
from .module import Module
from .parameter import Parameter


class _EngineModule(Module):
    _js_name = None

    def __init__(self, *args, **kwargs):
        super().__init__()
        self._adopt_js(b.new(getattr(b.host.torch.nn, self._js_name), *args, **kwargs))

    @classmethod
    def _of(cls, js):
        """A Python module over an engine module that already exists (a submodule of one)."""
        self = cls.__new__(cls)
        Module.__init__(self)
        self._adopt_js(js)
        return self

    def _adopt_js(self, js):
        object.__setattr__(self, "_js", js)
        own = b.options({"recurse": False})
        for entry in js.namedParameters(own):
            name, param = entry[0], entry[1]
            self._parameters[name] = Parameter._wrap(param, False)
        for entry in js.namedBuffers():
            if "." not in entry[0]:
                self._buffers[entry[0]] = b.from_js(entry[1], fresh=False)
        # Engine submodules (MultiheadAttention's out_proj, a TransformerEncoder's layers) as
        # Python modules over the same engine objects, for state dicts, .to, train and repr.
        for entry in js.namedChildren():
            cls = _engine_class_of(entry[1])
            if cls is not None:
                self._modules[entry[0]] = cls._of(entry[1])
        self.training = bool(js.training)

    def _js_value(self):
        return self._js

    def forward(self, *args, **kwargs):
        return _tuples(b.call(self._js.forward, *args, **kwargs))

    def train(self, mode=True):
        super().train(mode)
        self._js.train(mode)
        return self

    def extra_repr(self):
        return str(self._js.extraRepr())

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            pass
        js = self.__dict__.get("_js")
        member = None if js is None else getattr(js, b.camel(name), None)
        if member is None or callable(member):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return b.from_js(member, fresh=False)


def _tuples(value):
    """A module's several results as PyTorch returns them: tuples (``(output, (h_n, c_n))``), where
    the engine returns arrays."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


_engine_classes = {}


def engine_module(name):
    """The engine's ``torch.nn`` module class ``name`` as a Python class (made once, so
    ``isinstance`` works), or None when the engine has no module of that name."""
    cls = _engine_classes.get(name)
    if cls is None:
        member = getattr(b.host.torch.nn, name, None)
        if member is None or not callable(member) or not hasattr(getattr(member, "prototype", None), "forward"):
            return None
        cls = type(name, (_EngineModule,), {"_js_name": name, "__module__": "torch.nn"})
        _engine_classes[name] = cls
    return cls


class _EngineModuleList(_EngineModule):
    """An engine ModuleList inside an engine module (a TransformerEncoder's ``layers``): indexed,
    iterated and measured as PyTorch's ModuleList."""

    def __getitem__(self, index):
        return list(self._modules.values())[index]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


def _engine_class_of(js):
    """The Python class of an engine module object, by the name torch.nn exports its class under."""
    nn = b.host.torch.nn
    for name in b.js.Object.keys(nn):
        if getattr(nn, name) == js.constructor:
            if name == "ModuleList":
                cls = _engine_classes.get("ModuleList[]")
                if cls is None:
                    attrs = {"_js_name": name, "__module__": "torch.nn"}
                    cls = _engine_classes["ModuleList[]"] = type(name, (_EngineModuleList,), attrs)
                return cls
            return engine_module(name)
    return None


def engine_module_names():
    """The names of the engine's module classes (for ``dir(torch.nn)``)."""
    nn = b.host.torch.nn
    return [name for name in b.js.Object.keys(nn) if engine_module(name) is not None]


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return input.log_softmax(-1 if self.dim is None else self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"
