"""Python handles on the TS tf layer's Keras and tf.data objects (src/api/tf/): attribute names
in snake_case reach the camelCase members, keyword arguments become the trailing options object,
Promises (``fit``, ``evaluate``, ``predict``, ``load_data``) are waited for, tensors come back as
``tf.Tensor``, arrays as lists and plain objects as dicts. Nothing is computed here.

Tensors reached through these objects (weights, batches, predictions) are never disposed by
Python: the engine's own lifetimes cover them (see ownership.ts).
"""

import asyncio

import js
from pyodide.ffi import JsException, JsProxy, create_once_callable, jsnull, to_js

from torch import _bridge as b
from torch import _numpy

from . import _tensor
from ._callables import Proxies, take_pending
from ._errors import translate
from ._errors import wait as _wait

host = b.host
_fn_source = js.Function.prototype.toString
_has_own = js.Object.prototype.hasOwnProperty


def _is_class(value):
    try:
        return str(_fn_source.call(value)).startswith("class")
    except JsException:
        return False


def _is_promise(value):
    return (
        isinstance(value, JsProxy)
        and getattr(value, "constructor", None) is not None
        and (getattr(value.constructor, "name", None) == "Promise")
    )


def _is_plain_data(value):
    """A plain JS object holding data (History.history, config dicts), not functions."""
    ctor = getattr(value, "constructor", None)
    if ctor is None or ctor.name != "Object":
        return False
    for _k, v in js.Object.entries(value):
        if isinstance(v, JsProxy) and (callable(v) or _is_plain_object(v) and not _is_plain_data(v)):
            return False
    return True


def _is_plain_object(value):
    ctor = getattr(value, "constructor", None)
    return ctor is not None and ctor.name == "Object"


class AttrDict(dict):
    """A plain JS object of data as a dict whose keys also read as attributes
    (``tf.data.experimental.AUTOTUNE``)."""

    def __getattr__(self, name):
        for key in (name, b.camel(name)):
            if key in self:
                return self[key]
        raise AttributeError(name)


def wrap(value):
    """A JS value as Python sees it (see the module doc)."""
    if value is None or value is jsnull:
        return None
    if isinstance(value, asyncio.Future):  # a JS Promise, as Pyodide hands it back
        return wrap(_wait(value))
    if type(value) in (int, float, str, bool) or not isinstance(value, JsProxy):
        return value
    if _is_promise(value):
        return wrap(_wait(value))
    kind = host.kind(value)
    if kind in ("tensor", "parameter"):
        host.retain(value, False)
        return _tensor.Tensor._adopted(value)
    if kind == "array":
        return [wrap(v) for v in value]
    owner = _python_owner(value)
    if owner is not None:
        return owner
    from .keras import _keras_tensor  # not at the top: keras/ imports this module

    if _keras_tensor.is_keras_tensor(value):
        return _keras_tensor.KerasTensor(value)
    if _is_plain_data(value):
        return AttrDict((str(k), wrap(v)) for k, v in js.Object.entries(value))
    if _is_class(value):
        return JsClass(value)
    return JsObject(value)


# Keras layers and models subclassed in Python (keras/_subclassing.py) by the number their TS
# twin holds as ``pythonOwner``. The twin calls the Python object's methods, so both live as long
# as either is reachable; they are kept for the session.
OWNERS = {}


def _python_owner(value):
    """The Python object whose TS twin ``value`` is: ``model.layers`` gives the user's layers."""
    try:
        key = value.pythonOwner
    except AttributeError:
        return None
    return OWNERS.get(key) if isinstance(key, int) else None


# Methods whose TS object keeps calling the Python functions it was given after the call
# returns (see _callables.py): the model holds compile's loss and metrics, a mapped dataset its
# function.
_KEPT_BY_RECEIVER = {"compile"}
_KEPT_BY_RESULT = {"map", "filter"}


def call_settled(fn, this, js_args):
    """``fn`` called with ``this``; a Promise result waited for. Its rejection is raised without
    the rejected Promise ever reaching Python (bridge.ts ``callSettled`` says why)."""
    is_promise, result = host.callSettled(fn, this, to_js(js_args, create_pyproxies=False))
    if not is_promise:
        return result
    ok, value = b.run_sync(result)
    if not ok:
        host.rethrow(value)
    return value


# Keras methods that return NumPy arrays (tensors here when NumPy is not loaded).
_NUMPY_RESULT = {"predict", "predictOnBatch"}


def invoke(fn, args, kwargs, method=None, receiver=None):
    proxies = Proxies()
    take_pending()
    try:
        result = call_settled(fn, receiver, proxies.args(args, kwargs))
        value = wrap(result)
        if method in _NUMPY_RESULT and _numpy.loaded() is not None:
            value = _numpy.results_as_arrays(value, _tensor._TorchTensor)
    except JsException as error:
        raise translate(error) from None
    finally:
        if method in _KEPT_BY_RECEIVER and receiver is not None:
            proxies.keep_on(receiver, method)
        elif method in _KEPT_BY_RESULT:
            proxies.give_to_js()
        proxies.destroy()
    return value


def _number_if_scalar(value):
    if isinstance(value, _tensor._TorchTensor) and value.ndim == 0:
        return value.numpy()
    return value


class JsObject:
    """A TS layer object (model, layer, metric, optimizer, dataset, namespace, function)."""

    __slots__ = ("_js", "_this")

    def __init__(self, js_value, this=None):
        object.__setattr__(self, "_js", js_value)
        # The object a function was read from: its `this` when called, as Pyodide binds it.
        object.__setattr__(self, "_this", this)

    def _js_value(self):
        return self._js

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "summary" and hasattr(self._js, "summaryText"):
            return lambda **kwargs: print(invoke(self._js.summaryText, (), kwargs, receiver=self._js))
        from .keras import _weights  # not at the top: keras/ imports this module

        if name in _weights.METHODS and hasattr(self._js, "setWeights"):
            # Keras's values (nested lists, shape checks, files), not the TS typed arrays.
            method = getattr(_weights, name)
            return lambda *args, **kwargs: method(self, *args, **kwargs)
        js_name = b.camel(name)
        if js_name == "asNumpyIterator" and hasattr(self._js, js_name):
            # Elements as TensorFlow yields them: tuples of arrays (of plain values without NumPy).
            return lambda: (_numpy.results_as_arrays(e, _tensor._TorchTensor, tuples=True) for e in self)
        try:
            member = getattr(self._js, js_name)
        except AttributeError:
            raise AttributeError(f"'{self._type_name()}' object has no attribute '{name}'") from None
        if callable(member) and not _is_class(member) and not _has_own.call(self._js, js_name):
            # A method: called on this object.
            return lambda *args, **kwargs: invoke(member, args, kwargs, js_name, self._js)
        if callable(member) and not _is_class(member):
            return JsObject(member, self._js)  # a function stored on the object
        return wrap(member)

    def __setattr__(self, name, value):
        try:
            setattr(self._js, b.camel(name), b.to_js_value(value))
        except JsException as error:
            raise translate(error) from None

    def __call__(self, *args, **kwargs):
        return invoke(self._js, args, kwargs, receiver=self._this)

    def __len__(self):
        try:
            return int(self._js.length)
        except JsException as error:
            # TypeError as in TensorFlow (a filtered dataset's length is unknown); list(ds)
            # then iterates without a length hint.
            raise translate(error) from None
        except AttributeError:
            # Objects with no length (an iterator): Python's TypeError, which list() expects.
            raise TypeError(f"object of type '{self._type_name()}' has no len()") from None

    def __iter__(self):
        it_key = js.Symbol.asyncIterator
        if js.Reflect.has(self._js, it_key):
            iterator = js.Reflect.get(self._js, it_key).call(self._js)
            while True:
                try:
                    step = call_settled(iterator.next, iterator, [])
                except JsException as error:
                    raise translate(error) from None
                if step.done:
                    return
                yield wrap(step.value)
        else:
            for v in self._js:
                yield wrap(v)

    def _type_name(self):
        ctor = getattr(self._js, "constructor", None)
        return str(ctor.name) if ctor is not None else "object"

    def __repr__(self):
        text = str(self._js.toString())
        if text.startswith("[object") or text.startswith("(") or text.startswith("function"):
            return f"<{self._type_name()} object>"
        return text


class JsClass(JsObject):
    """A TS layer class: calling it makes an instance (``layers.Dense(10, activation="relu")``)."""

    __slots__ = ()

    def __call__(self, *args, **kwargs):
        # Configuration numbers computed as tensors (``x_train.max() + 1``) are Python numbers
        # to a constructor, as NumPy scalars are in Keras.
        args = [_number_if_scalar(a) for a in args]
        kwargs = {k: _number_if_scalar(v) for k, v in kwargs.items()}
        try:
            return wrap(self._js.new(*Proxies().args(args, kwargs)))
        except JsException as error:
            raise translate(error) from None


class JsScope:
    """A ``with`` block over the TS layer's callback scopes (``tf.device(name, fn)``,
    ``strategy.scope(fn)``): ``open(fn)`` is called with a function returning a Promise that
    ``__exit__`` settles, then waits until the TS side has closed the scope."""

    def __init__(self, open_scope, value=None):
        self._open = open_scope
        self._value = value
        self._release = None
        self._done = None

    def __enter__(self):
        box = {}

        def executor(resolve, reject):
            box["resolve"] = resolve

        pending = js.Promise.new(create_once_callable(executor))
        try:
            self._done = self._open(create_once_callable(lambda: pending))
        except JsException as error:
            raise translate(error) from None
        self._release = box["resolve"]
        return self._value

    def __exit__(self, *exc):
        release, done = self._release, self._done
        self._release = self._done = None
        release()
        b.wait(done)
        return False
