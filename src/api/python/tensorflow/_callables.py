"""Python callables handed to the TS Keras and tf.data layer: a custom loss or metric function
(``compile(loss=my_loss, metrics=[my_metric])``), a ``Dataset.map`` function and the hooks of a
``tf.keras.callbacks.Callback`` subclass become JavaScript functions over Pyodide proxies.

Arguments. Engine tensors reach the Python function as ``tf.Tensor`` handles it does not own
(the engine holds them); a tuple element of a dataset comes as separate arguments, as in
TensorFlow; callback logs come as a dict of Python numbers.

Results. Tensors the function returns are handed to the engine (``disown``): the TS layer uses
them after the Python wrapper is gone (the loss is differentiated, a mapped batch is trained on),
so Python's reference counting must not dispose them; the engine's lifetimes take over, as for a
TypeScript function's results.

Lifetimes. The proxies of one call (``fit``'s callbacks) are destroyed when the call returns.
The TS object keeps the ones it stores: ``compile``'s loss and metrics live on the model until it
is compiled again (then they are destroyed), a ``map`` function lives on the new dataset (its
proxy is released by Pyodide when JavaScript collects that dataset).

Errors. An exception raised inside the Python function is kept here and crosses JavaScript as a
plain ``PythonCallableError`` (bridge.ts); the call that was running (``fit``, iteration) raises
the original exception again, so the traceback shows the user's frames inside the function, not
an engine message.
"""

import js
from pyodide.ffi import JsProxy, create_proxy

from torch import _bridge as b

from . import _tensor

host = b.host

# The exception a Python function raised inside the TS layer, until the call that reached it
# re-raises it (see _tensorflow_error in _errors.py).
_pending = [None]

# Keras's hook names (snake_case) and the TS Callback's (camelCase) that fit calls.
HOOKS = (
    "on_train_begin",
    "on_train_end",
    "on_epoch_begin",
    "on_epoch_end",
    "on_train_batch_end",
    "on_test_batch_end",
)
UNSUPPORTED_HOOKS = (
    "on_train_batch_begin",
    "on_test_begin",
    "on_test_end",
    "on_test_batch_begin",
    "on_predict_begin",
    "on_predict_end",
    "on_predict_batch_begin",
    "on_predict_batch_end",
)


def take_pending():
    """The exception a Python callable raised inside JavaScript (once), or None."""
    error, _pending[0] = _pending[0], None
    return error


def _result_to_js(value):
    if isinstance(value, _tensor._TorchTensor):
        host.disown(value._js)  # the TS layer uses it after this wrapper is gone
        return value._js
    return b.to_js_value(value, _result_to_js)


def _no_read_back(fn):
    """Pyodide's "Cannot stack switch" said in our terms: a function the TS layer calls in the
    middle of a step cannot wait for the GPU (run_sync needs Python's own entry point)."""
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", "this function"))
    return RuntimeError(
        f"{name} is called by Keras in the middle of a training step, where it cannot wait for "
        "the GPU: .numpy(), float(), .item() and print(tensor) do not work inside it. Use tensor "
        "ops there (and read numbers from a callback's logs, which are plain numbers)."
    )


class Proxies:
    """The proxies made for one call into the TS layer."""

    def __init__(self):
        self.made = []

    def function(self, fn, name=None, convert=None):
        """``fn`` as a JS function (named like ``fn``, as Keras names a metric after it)."""
        from ._js_object import wrap

        def call(*js_args):
            try:
                args = convert(js_args) if convert else [wrap(a) for a in js_args]
                return _result_to_js(fn(*args))
            except BaseException as error:
                if isinstance(error, RuntimeError) and "Cannot stack switch" in str(error):
                    error = _no_read_back(fn).with_traceback(error.__traceback__)
                # Kept here and raised again by the call that reached the TS layer; JavaScript
                # gets a plain error to unwind with.
                _pending[0] = error
                return host.pythonRaised(f"{type(error).__name__}: {error}")

        proxy = create_proxy(call)
        self.made.append(proxy)
        return host.pythonFunction(proxy, name or getattr(fn, "__name__", "function"))

    def callback(self, cb):
        """A ``tf.keras.callbacks.Callback`` subclass instance as a TS Callback whose hooks call it."""
        from ._js_object import JsObject, wrap
        from .keras.callbacks import Callback as base

        cls = type(cb)
        unsupported = [h for h in UNSUPPORTED_HOOKS if getattr(cls, h) is not getattr(base, h)]
        if unsupported:
            raise NotImplementedError(
                f"{cls.__name__}: gpubook's fit does not call {', '.join(unsupported)}; it calls {', '.join(HOOKS)}"
            )
        twin = _tensor.tf_js.keras.callbacks.Callback.new()

        def logs_of(js_logs):
            logs = wrap(js_logs)
            return dict(logs) if logs is not None else {}

        def begin(js_logs=None):
            cb.set_model(JsObject(twin.model))
            cb.set_params(dict(wrap(twin.params)))
            return cb.on_train_begin(logs_of(js_logs))

        hooks = {"on_train_begin": self.function(begin, "onTrainBegin", lambda a: a)}
        for hook in HOOKS[1:]:
            if getattr(cls, hook) is getattr(base, hook):
                continue  # not overridden: no crossing per batch
            method = getattr(cb, hook)
            if hook == "on_train_end":
                convert = lambda a: [logs_of(a[0] if a else None)]  # noqa: E731  a one-line converter chosen per hook
            else:
                convert = lambda a: [int(a[0]), logs_of(a[1] if len(a) > 1 else None)]  # noqa: E731  a one-line converter chosen per hook
            hooks[hook] = self.function(method, b.camel(hook), convert)
        for hook, fn in hooks.items():
            setattr(twin, b.camel(hook), fn)
        return twin

    def to_js(self, value):
        """A Python argument as the TS layer takes it, with callables as JS functions."""
        from .keras.callbacks import Callback

        if isinstance(value, Callback):
            return self.callback(value)
        if type(value).__module__ == "numpy":  # fit/predict/from_tensor_slices of ndarrays
            return b.numpy_to_js(value, "tf")
        if (
            callable(value)
            and not isinstance(value, (type, JsProxy, _tensor._TorchTensor))
            and getattr(value, "_js_value", None) is None
        ):
            return self.function(value)
        return b.to_js_value(value, self.to_js)

    def args(self, args, kwargs):
        js_args = [self.to_js(a) for a in args]
        if kwargs and any(v is not None for v in kwargs.values()):
            js_args.append(b.options(kwargs, self.to_js))
        return js_args

    def destroy(self):
        for proxy in self.made:
            proxy.destroy()
        self.made = []

    def keep_on(self, owner, slot):
        """Hands this call's proxies to the JS ``owner``, which calls them later (``compile``'s
        loss and metrics): those it held in ``slot`` from an earlier call are destroyed now."""
        key = f"__gpubookPython_{slot}"
        old = js.Reflect.get(owner, key)
        if isinstance(old, (int, float)):
            for proxy in _kept.pop(int(old), ()):
                proxy.destroy()
        if self.made:
            _next_token[0] += 1
            _kept[_next_token[0]] = self.made
            js.Reflect.set(owner, key, _next_token[0])
        else:
            js.Reflect.deleteProperty(owner, key)
        self.made = []

    def give_to_js(self):
        """The TS object made by this call keeps calling the proxies (a mapped dataset, which
        has no end of life Python could see): Pyodide releases them when JavaScript collects it."""
        self.made = []


# Proxies a compiled model holds (its __gpubookPython_compile token → proxies).
_kept = {}
_next_token = [0]
