"""Lists the public names of gpubook's Python faces as a Python cell reaches them, for the
editor's completions and hovers (see python-names.test.ts, which runs this under Pyodide with the
real packages and keeps python-names.json equal to its output).

Each namespace's names are ``dir()`` plus the TypeScript layer's names its ``__getattr__`` finds
(``torch.zeros_like``, ``tf.keras.layers.Dense``): every name listed was reached by ``getattr``.
``listing()`` returns ``{namespace: {name: [kind, signature, doc]}}``, ready for JSON.
"""

import importlib
import inspect
import re
import types

from pyodide.ffi import JsProxy

from tensorflow._js_object import JsClass, JsObject

NAMESPACES = [
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.cuda",
    "torch.accelerator",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.utils.data",
    "torchvision",
    "torchvision.datasets",
    "torchvision.transforms",
    "tensorflow",
    "tensorflow.config",
    "tensorflow.config.experimental",
    "tensorflow.math",
    "tensorflow.nn",
    "tensorflow.random",
    "tensorflow.data",
    "tensorflow.distribute",
    "tensorflow.keras",
    "tensorflow.keras.layers",
    "tensorflow.keras.models",
    "tensorflow.keras.optimizers",
    "tensorflow.keras.losses",
    "tensorflow.keras.metrics",
    "tensorflow.keras.callbacks",
    "tensorflow.keras.datasets",
    "tensorflow.keras.backend",
    "tensorflow.keras.preprocessing",
    "tensorflow.linalg",
    "tensorflow.test",
    "tensorflow.keras.utils",
    "tensorflow.keras.activations",
    "tensorflow.keras.optimizers.schedules",
    "keras",
    "keras.layers",
    "keras.ops",
    "keras.utils",
    "keras.optimizers",
    "keras.losses",
    "keras.metrics",
    "keras.callbacks",
    "gpubook",
    "accelerate",
]

PACKAGES = ("torch", "torchvision", "tensorflow", "keras", "gpubook", "accelerate")
DOC_LIMIT = 240


def resolve(path):
    head, *rest = path.split(".")
    value = importlib.import_module(head)
    for part in rest:
        value = getattr(value, part)
    return value


def snake(name):
    """The TS layer's camelCase name as the faces spell it (``zerosLike`` → ``zeros_like``);
    classes keep theirs."""
    if name[:1].isupper():
        return name
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def backings(namespace):
    """The TS layer objects a namespace's ``__getattr__`` reads names from."""
    if isinstance(namespace, types.ModuleType):
        own = vars(namespace)
        if "__getattr__" not in own:
            return []
        values = [v for k, v in own.items() if k.startswith("_")]
    else:
        try:
            values = [object.__getattribute__(namespace, "_js")]
        except AttributeError:
            return []
    found = []
    for value in values:
        if isinstance(value, JsObject):
            value = object.__getattribute__(value, "_js")
        if isinstance(value, JsProxy) and not callable(value):
            found.append(value)
    return found


def delegates(namespace):
    """The modules a module's ``__getattr__`` passes names on to (``keras.layers`` to
    ``tensorflow.keras.layers``): their names are the namespace's too."""
    if not isinstance(namespace, types.ModuleType) or "__getattr__" not in vars(namespace):
        return []
    return [v for k, v in vars(namespace).items() if k.startswith("_") and isinstance(v, types.ModuleType)]


def js_names(value):
    """Own and inherited property names of a JS object, up to Object.prototype."""
    import js

    names = set()
    proto = value
    while proto is not None and proto != js.Object.prototype:
        names.update(str(n) for n in js.Object.getOwnPropertyNames(proto))
        proto = js.Object.getPrototypeOf(proto)
    return names


def is_public_module(namespace_path, name, value):
    return isinstance(value, types.ModuleType) and f"{namespace_path}.{name}" in NAMESPACES


def kept(namespace, namespace_path, name, value):
    """Whether ``name``, found by ``dir()``, is part of the namespace's API, not a helper it imported."""
    if name.startswith("_") or isinstance(value, JsProxy):
        return False
    if isinstance(value, types.ModuleType):
        return is_public_module(namespace_path, name, value)
    if f"{namespace_path}.{name}" in NAMESPACES or isinstance(value, JsObject):
        return True
    if inspect.isclass(value) or inspect.isroutine(value):
        module = getattr(value, "__module__", None) or ""
        if not isinstance(namespace, types.ModuleType):
            # A namespace object (tf.config.experimental, tf.random): its methods are its names.
            return module.split(".")[0] in PACKAGES
        # Its own, or re-exported from its own (private) submodules: torch.Tensor from torch._tensor.
        return module == namespace_path or module.startswith(namespace_path + ".")
    return type(value).__module__.split(".")[0] in PACKAGES


def kind(namespace_path, name, value):
    if isinstance(value, types.ModuleType) or f"{namespace_path}.{name}" in NAMESPACES:
        return "module"
    if inspect.isclass(value) or isinstance(value, JsClass):
        return "class"
    if callable(value):
        return "function"
    return "constant"


def signature(value):
    if isinstance(value, JsObject) or not callable(value):
        return None
    try:
        text = str(inspect.signature(value))
    except (TypeError, ValueError):
        return None
    # Default values' reprs may hold addresses; the listing must not change from run to run.
    return re.sub(r" at 0x[0-9a-f]+", "", text)


def doc(value):
    if isinstance(value, JsObject) or not (inspect.isclass(value) or inspect.isroutine(value)):
        return None
    text = inspect.getdoc(value)
    if not text:
        return None
    first = text.split("\n\n")[0].replace("\n", " ").strip()
    return first if len(first) <= DOC_LIMIT else first[: DOC_LIMIT - 1].rstrip() + "…"


def entries(path):
    namespace = resolve(path)
    static = {n for n in dir(namespace) if not n.startswith("_")}
    # Names the TypeScript layer gives through __getattr__ are the namespace's by construction.
    dynamic = set()
    for backing in backings(namespace):
        for js_name in js_names(backing):
            if not js_name.startswith("_") and js_name != "constructor":
                dynamic.add(snake(js_name))
    for target in delegates(namespace):
        dynamic.update(entries(target.__name__))
    listed = {}
    for name in sorted(static | dynamic):
        try:
            value = getattr(namespace, name)
        except Exception:  # noqa: BLE001  a name the namespace does not answer to is not listed
            continue
        if isinstance(value, JsProxy) or name.startswith("_"):
            continue
        if name in static and not kept(namespace, path, name, value):
            continue
        listed[name] = [kind(path, name, value), signature(value), doc(value)]
    return listed


def listing():
    return {path: entries(path) for path in NAMESPACES}
