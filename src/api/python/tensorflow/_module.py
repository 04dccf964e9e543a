"""``tf.Module`` and ``tf.name_scope``: TensorFlow's base class for stateful Python objects.

A module finds its variables and submodules as TensorFlow does, by walking its attributes in
sorted name order (lists and tuples in order, dicts by sorted key), its own first, then each
submodule's in the order found, every object once. Keras layers and models (the TS layer's
objects and Python subclasses) count as submodules, their variables being their weights (non-trainable first, as
TensorFlow's walk of a layer's attributes finds them). Names scopes are a Python stack; as in
TensorFlow's eager mode, entering the same scope name twice does not make it unique.
"""

import functools
import re

_scope_stack = []


def current_scope():
    """The enclosing name scope as a prefix ("outer/inner/"), "" at the top."""
    return _scope_stack[-1] if _scope_stack else ""


class name_scope:  # noqa: N801  TensorFlow's name
    """``with tf.name_scope("block"):`` — variables made inside are named ``block/<name>:0``. A
    name ending in "/" is an absolute scope (how a module re-enters its own)."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"name for name_scope must be a string, got {name!r}")
        self._name = name

    @property
    def name(self):
        return self._name

    def __enter__(self):
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):
            scope = self._name
        else:
            scope = current_scope() + self._name + "/"
        _scope_stack.append(scope)
        return scope

    def __exit__(self, *exc):
        _scope_stack.pop()
        return False


def _camel_to_snake(name):
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


def _matches(leaf, kind, keras_weight=False):
    """Whether a leaf is what ``kind`` collects: "submodules", "variables", "trainable" or
    "non_trainable" (a Keras layer's weights are variables as TensorFlow's are)."""
    from . import Variable

    if kind == "submodules":
        return isinstance(leaf, Module) or _keras_object(leaf)
    if not (keras_weight or isinstance(leaf, Variable)):
        return False
    if kind == "variables":
        return True
    return bool(leaf._js.requiresGrad) == (kind == "trainable")


def _keras_object(value):
    """A Keras layer or model: the TS layer's objects and Python subclasses of
    ``tf.keras.layers.Layer`` / ``tf.keras.Model`` (their weights are found through them)."""
    from ._js_object import JsObject
    from .keras import _subclassing

    if isinstance(value, JsObject):
        return hasattr(value._js, "trainableWeights")
    return isinstance(value, (_subclassing.Layer, _subclassing.Model))


def _leaves(value):
    """TensorFlow's nest.flatten order: lists and tuples in order, dicts by sorted key."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _leaves(value[key])
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _keras_weights(layer):
    return list(layer.non_trainable_weights) + list(layer.trainable_weights)


def _walk(module, kind, seen, stack):
    """Module._flatten: own attributes' matches first, then each submodule's, depth first."""
    submodules = []
    for key in sorted(vars(module)):
        for leaf in _leaves(vars(module)[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if _matches(leaf, kind):
                yield leaf
            if isinstance(leaf, Module) or _keras_object(leaf):
                submodules.append(leaf)
    stack.append(id(module))
    for sub in submodules:
        if id(sub) in stack:
            continue
        if isinstance(sub, Module):
            yield from _walk(sub, kind, seen, stack)
        elif kind != "submodules":
            yield from (w for w in _keras_weights(sub) if _matches(w, kind, keras_weight=True))
    stack.pop()


class Module:
    """``tf.Module``: a named container of variables and submodules (see the module doc).

    ``variables``, ``trainable_variables``, ``non_trainable_variables`` and ``submodules`` are
    tuples, as in TensorFlow; ``name_scope`` is the module's scope and ``with_name_scope`` wraps a
    method to run inside it."""

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not name.isidentifier():
            raise ValueError(
                f"'{name}' is not a valid module name. Module names must be valid Python identifiers "
                "(e.g. a valid class name)."
            )
        self._name = name
        with name_scope(name) as scope_name:
            self._name_scope = name_scope(scope_name)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return self._name_scope

    @property
    def variables(self):
        return tuple(self._flatten(kind="variables"))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(kind="trainable"))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(kind="non_trainable"))

    @property
    def submodules(self):
        return tuple(self._flatten(kind="submodules"))

    def _flatten(self, recursive=True, kind="variables"):
        if not recursive:
            return [leaf for key in sorted(vars(self)) for leaf in _leaves(vars(self)[key]) if _matches(leaf, kind)]
        return list(_walk(self, kind, {id(self)}, []))

    @classmethod
    def with_name_scope(cls, method):
        """A method decorator: the method runs inside the module's name scope."""

        @functools.wraps(method)
        def in_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return in_scope

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__qualname__} object at {id(self):#x}>"
