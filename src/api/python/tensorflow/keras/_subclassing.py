"""Keras classes Python subclasses: ``tf.keras.layers.Layer`` and ``tf.keras.Model``.

Each instance holds a TS twin (``PythonLayer`` / ``PythonModel``, src/api/tf/keras/) whose
``build``, ``call``, ``compute_output_shape`` and ``compute_mask`` are this object's methods,
called synchronously from JavaScript (see _callables.py: they cannot wait for GPU reads). Calling
the object calls the twin, so building, device placement and masks are the TS Layer's; layers and
lists of layers assigned as attributes are tracked by the twin in assignment order, and
``add_weight`` creates the twin's weights. Every other attribute (``compile``, ``fit``,
``summary``, ``weights``, ``trainable_variables``, ``get_weights``, …) is the twin's.

``tf.keras.Model(inputs, outputs)`` is not a subclass: it makes the TS layer's functional model.
"""

import functools
import inspect

import js
from pyodide.ffi import jsnull, to_js

from torch import _bridge as b

from .. import _js_object, _tensor
from .._callables import Proxies
from .._errors import translate
from .._js_object import JsClass, JsObject, invoke, wrap

host = b.host

# The ``training`` value of the Python calls running, innermost last: a layer called inside
# ``call`` without ``training`` gets its caller's, as Keras's call context gives it.
_training_context = []

_instance_of = js.Function.new("o", "c", "return o instanceof c")

# Attributes that are the twin's, also when set (``layer.trainable = False``).
_TWIN_SETTABLE = ("trainable", "built", "stop_training")


class _ContextLayer(JsObject):
    """A TS layer held by a Python layer: called without ``training``, it gets its caller's."""

    __slots__ = ()

    def __call__(self, *args, **kwargs):
        if kwargs.get("training") is None and _training_context:
            kwargs["training"] = _training_context[-1]
        return JsObject.__call__(self, *args, **kwargs)


def _is_ts_layer(value):
    return isinstance(value, JsObject) and not isinstance(value, JsClass) and _is_layer_js(value._js)


def _is_layer_js(js_value):
    try:
        return bool(_instance_of(js_value, _ts_layer_base()))
    except Exception:  # noqa: BLE001  not an object at all
        return False


@functools.cache
def _ts_layer_base():
    # PythonLayer's base class is the TS Layer every Keras layer extends.
    return js.Object.getPrototypeOf(host.PythonLayer)


def _tracked_value(value):
    """``value`` as stored on the Python object (TS layers made training-aware), and as the twin
    tracks it (a JS layer, array of layers or variable), or None when it holds none."""
    if isinstance(value, _Base):  # a Python subclass (not the metaclass's check)
        return value, value._twin_js
    if _is_variable(value):  # a tf.Variable attribute is a weight of the layer, as in Keras
        return value, value._js
    if _is_ts_layer(value):
        held = value if isinstance(value, _ContextLayer) else _ContextLayer(value._js)
        return held, value._js
    if isinstance(value, (list, tuple, dict)):
        items = list(value.values()) if isinstance(value, dict) else list(value)
        pairs = [_tracked_value(v) for v in items]
        if any(js_v is not None for _, js_v in pairs):
            js_list = to_js([js_v for _, js_v in pairs if js_v is not None], create_pyproxies=False)
            return value, js_list
    return value, None


def _is_variable(value):
    import tensorflow

    return isinstance(value, tensorflow.Variable)


def _named(hook, qualname):
    """``hook`` under the user's method name (``MyModel.call``), as errors about it name it."""

    def named(*args):
        return hook(*args)

    named.__qualname__ = named.__name__ = qualname
    return named


def _accepts(method, name):
    params = inspect.signature(method).parameters
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _wrap_build(cls):
    """A subclass's own ``build``, called directly (``layer.build((None, 4))``), goes through the
    twin so it runs once and marks the layer built, as Keras's does."""
    user_build = cls.__dict__["build"]

    @functools.wraps(user_build)
    def build(self, input_shape=None):
        if self.__dict__.get("_in_build_hook"):
            return user_build(self, input_shape)
        self._require_init()
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        try:
            self._twin_js.build(to_js([None if d is None else int(d) for d in input_shape]))
        except Exception as error:  # noqa: BLE001  a JS error or the user's own
            raise _translated(error) from None
        return None

    cls.build = build


def _translated(error):
    from pyodide.ffi import JsException

    return translate(error) if isinstance(error, JsException) else error


_ADD_WEIGHT_TF_KERAS = ("name", "shape", "dtype", "initializer", "regularizer", "trainable", "constraint")
_ADD_WEIGHT_KERAS3 = ("shape", "initializer", "dtype", "trainable", "autocast", "regularizer", "constraint")


class _Base:
    """What Layer and Model share."""

    _twin_kind = "PythonLayer"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__ and cls.__module__ != __name__:  # a user's class, not Model
            _wrap_build(cls)

    def __init__(self, **kwargs):
        cls = type(self)
        proxies = Proxies()
        object.__setattr__(self, "_tracked_names", set())
        object.__setattr__(self, "_pending_calls", [])
        object.__setattr__(self, "_structured", [None])
        object.__setattr__(self, "_proxies", proxies)
        hooks = {
            "call": proxies.function(_named(self._hook_call, f"{cls.__name__}.call"), "call", lambda a: a),
            "build": proxies.function(_named(self._hook_build, f"{cls.__name__}.build"), "build", lambda a: a),
            "computeOutputShape": None,
            "computeMask": None,
        }
        if cls.compute_output_shape is not _Base.compute_output_shape:
            hooks["computeOutputShape"] = proxies.function(self._hook_output_shape, "compute_output_shape", lambda a: a)
        if cls.compute_mask is not _Base.compute_mask:
            hooks["computeMask"] = proxies.function(self._hook_mask, "compute_mask", lambda a: a)
        js_hooks = to_js(hooks, dict_converter=js.Object.fromEntries, create_pyproxies=False)
        twin_class = getattr(host, self._twin_kind)
        options = Proxies().args((), kwargs)
        try:
            twin = twin_class.new(cls.__name__, js_hooks, *options)
        except Exception as error:  # noqa: BLE001
            raise _translated(error) from None
        key = len(_js_object.OWNERS) + 1
        _js_object.OWNERS[key] = self
        twin.pythonOwner = key
        object.__setattr__(self, "_twin_js", twin)
        object.__setattr__(self, "_twin", JsObject(twin))

    # ------------------------------------------------------------------ the twin
    def _js_value(self):
        return self._twin_js

    def _require_init(self):
        if "_twin_js" not in self.__dict__:
            kind = "Model" if isinstance(self, Model) else "Layer"
            raise RuntimeError(
                f"It looks like you are subclassing `{kind}` and you forgot to call "
                "`super().__init__()`. Always start with this line."
            )

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        self._require_init()
        try:
            return getattr(self._twin, name)
        except AttributeError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'") from None

    def __setattr__(self, name, value):
        if name in _TWIN_SETTABLE:
            self._require_init()
            setattr(self._twin, name, value)
            return
        if not name.startswith("_"):
            held, js_value = _tracked_value(value)
            if js_value is not None:
                self._require_init()
                self._twin_js.tracked.set(name, js_value)
                self._tracked_names.add(name)
                value = held
            elif name in self.__dict__.get("_tracked_names", ()):
                self._twin_js.tracked.set(name, None)
                self._tracked_names.discard(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self.__dict__.get("_tracked_names", ()):
            self._twin_js.tracked.set(name, None)
            self._tracked_names.discard(name)
        object.__delattr__(self, name)

    @property
    def name(self):
        self._require_init()
        return str(self._twin_js.name)

    @property
    def trainable(self):
        self._require_init()
        return bool(self._twin_js.trainable)

    @property
    def built(self):
        return "_twin_js" in self.__dict__ and bool(self._twin_js.built)

    # ------------------------------------------------------------------ what subclasses define
    def build(self, input_shape):
        """Creates the weights (subclasses override it); Keras calls it once, before the first call."""

    def call(self, inputs, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method implemented.")

    def compute_output_shape(self, input_shape):
        raise NotImplementedError

    def compute_mask(self, inputs, mask=None):
        raise NotImplementedError

    def add_weight(self, *args, **kwargs):
        """Keras's ``add_weight``: a weight of this layer (glorot_uniform unless ``initializer``).
        Positional arguments in tf.keras 2's order (name, shape, dtype, initializer, regularizer,
        trainable, constraint), or in Keras 3's (shape, initializer, dtype, trainable, autocast,
        regularizer, constraint) when the first is a shape, as ``import keras`` code writes it."""
        self._require_init()
        shape_first = bool(args) and isinstance(args[0], (list, tuple, int)) and not isinstance(args[0], bool)
        order = _ADD_WEIGHT_KERAS3 if shape_first else _ADD_WEIGHT_TF_KERAS
        if len(args) > len(order):
            raise TypeError(f"add_weight() takes at most {len(order)} positional arguments ({len(args)} given)")
        for key, value in zip(order, args):
            if key in kwargs:
                raise TypeError(f"add_weight() got multiple values for argument '{key}'")
            kwargs[key] = value
        kwargs.pop("autocast", None)
        name, shape, dtype, initializer = (kwargs.pop(k, None) for k in ("name", "shape", "dtype", "initializer"))
        regularizer, trainable, constraint = (kwargs.pop(k, None) for k in ("regularizer", "trainable", "constraint"))
        if shape is not None and not isinstance(shape, (list, tuple)):
            shape = (shape,)
        if shape is not None:
            shape = [int(d) for d in shape]
        if callable(initializer) and getattr(initializer, "_js_value", None) is None:
            # A Python initializer (tf.random_normal_initializer(), a function of shape and
            # dtype): called here with Keras's arguments rather than the TS layer's.
            python_init = initializer

            def initializer(js_shape, _device):
                import tensorflow

                return python_init(tuple(int(d) for d in js_shape), dtype=tensorflow.float32)

        return invoke(
            self._twin_js.addPythonWeight,
            (),
            dict(
                name=name,
                shape=shape,
                dtype=None if dtype is None else str(getattr(dtype, "name", dtype)),
                initializer=initializer,
                regularizer=regularizer,
                trainable=trainable,
                constraint=constraint,
                **kwargs,
            ),
            receiver=self._twin_js,
        )

    def add_loss(self, losses, **kwargs):
        raise NotImplementedError(
            f"{type(self).__name__}.add_loss: losses added inside call are not supported here; "
            "add the term to the loss you compile with (or compute it in a custom training loop)"
        )

    def add_metric(self, value, name=None, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}.add_metric: not supported here; give the metric to compile")

    @property
    def losses(self):
        """Keras's activity losses: always empty here (``add_loss`` is not supported)."""
        return []

    def summary(self, line_length=None, positions=None, print_fn=None, **kwargs):
        """Keras's table (layers' output shapes show as "multiple"); ``print_fn`` gets each line."""
        self._require_init()
        text = invoke(
            self._twin_js.summaryText,
            (),
            dict(line_length=line_length, positions=positions, **kwargs),
            receiver=self._twin_js,
        )
        for line in text.split("\n"):
            (print_fn or print)(line)

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable, "dtype": "float32"}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    # ------------------------------------------------------------------ calling
    def __call__(self, inputs, *args, **kwargs):
        self._require_init()
        training = kwargs.pop("training", None)
        if training is None and _training_context:
            training = _training_context[-1]
        if isinstance(inputs, (list, tuple, dict)) and _holds_tensor(inputs):
            return self._call_structured(inputs, args, kwargs, training)
        if isinstance(inputs, _tensor._TorchTensor) or type(inputs).__module__ == "numpy":
            return self._call_here(inputs, args, kwargs, training)
        # Symbolic inputs (keras.Input: the TS layer records a functional node) and the rest.
        depth = len(self._pending_calls)
        self._pending_calls.append((args, kwargs))
        self._structured[0] = None
        try:
            y = invoke(self._twin_js, (inputs,), {"training": training})
        finally:
            del self._pending_calls[depth:]
        structured, self._structured[0] = self._structured[0], None
        return y if structured is None else structured

    def _call_here(self, inputs, args, kwargs, training):
        """A call from Python: the twin builds and places the input (pythonEnter), ``call`` runs
        here in Python's own frame (so it may read tensors back, as in eager TensorFlow), and the
        twin attaches the output's mask (pythonExit). ``training`` unset stays unset: ``call``'s
        own default applies, as in Keras."""
        x, mask = invoke(self._twin_js.pythonEnter, (inputs,), {}, receiver=self._twin_js)
        call_kwargs = dict(kwargs)
        if training is not None and _accepts(self.call, "training"):
            call_kwargs["training"] = bool(training)
        if mask is not None and "mask" not in call_kwargs and _accepts(self.call, "mask"):
            call_kwargs["mask"] = mask
        _training_context.append(training)
        try:
            y = self.call(x, *args, **call_kwargs)
        finally:
            _training_context.pop()
        first = _first_tensor(y)
        if first is None:
            raise TypeError(
                f"{type(self).__name__}.call must return a tensor (or a structure of tensors), got {type(y).__name__}"
            )
        invoke(self._twin_js.pythonExit, (x, first, mask), {}, receiver=self._twin_js)
        return y

    def _call_structured(self, inputs, args, kwargs, training):
        """Nested inputs (a list or dict of tensors) are beyond the TS Layer's one-tensor call:
        the Python build and call run here."""
        if not self.built:
            shapes = _map_structure(inputs, lambda t: _tensor.TensorShape(t.shape))
            object.__setattr__(self, "_in_build_hook", True)
            try:
                self.build(shapes)
            finally:
                object.__setattr__(self, "_in_build_hook", False)
            self._twin_js.built = True
        call_kwargs = dict(kwargs)
        if training is not None and _accepts(self.call, "training"):
            call_kwargs["training"] = bool(training)
        _training_context.append(bool(training))
        try:
            return self.call(inputs, *args, **call_kwargs)
        finally:
            _training_context.pop()

    # ------------------------------------------------------------------ hooks (from the twin)
    def _hook_build(self, js_shape):
        object.__setattr__(self, "_in_build_hook", True)
        try:
            self.build(_tensor.TensorShape(None if d is None or d is jsnull else int(d) for d in js_shape))
        finally:
            object.__setattr__(self, "_in_build_hook", False)

    def _hook_call(self, js_x, training, js_mask):
        x = wrap(js_x)
        args, kwargs = self._pending_calls[-1] if self._pending_calls else ((), {})
        kwargs = dict(kwargs)
        training = bool(training)
        if _accepts(self.call, "training"):
            kwargs["training"] = training
        if js_mask is not None and js_mask is not jsnull and "mask" not in kwargs and _accepts(self.call, "mask"):
            kwargs["mask"] = wrap(js_mask)
        _training_context.append(training)
        try:
            y = self.call(x, *args, **kwargs)
        finally:
            _training_context.pop()
        if isinstance(y, _tensor._TorchTensor):
            return y
        first = _first_tensor(y)
        if first is None:
            raise TypeError(
                f"{type(self).__name__}.call must return a tensor (or a structure of tensors), got {type(y).__name__}"
            )
        self._structured[0] = y
        return first

    def _hook_output_shape(self, js_shape):
        shape = _tensor.TensorShape(None if d is None or d is jsnull else int(d) for d in js_shape)
        out = self.compute_output_shape(shape)
        return [None if d is None else int(d) for d in out]

    def _hook_mask(self, js_x, js_mask):
        mask = None if js_mask is None or js_mask is jsnull else wrap(js_mask)
        return self.compute_mask(wrap(js_x), mask)


def _holds_tensor(value):
    return _first_tensor(value) is not None


def _first_tensor(value):
    if isinstance(value, _tensor._TorchTensor):
        return value
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        for v in value:
            t = _first_tensor(v)
            if t is not None:
                return t
    return None


def _map_structure(value, fn):
    if isinstance(value, dict):
        return {k: _map_structure(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_map_structure(v, fn) for v in value)
    return fn(value) if isinstance(value, _tensor._TorchTensor) else value


class _KerasMeta(type):
    """``isinstance(Dense(4), tf.keras.layers.Layer)`` and ``isinstance(Sequential(),
    tf.keras.Model)`` hold for the TS layer's objects as for Python subclasses."""

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        if cls not in (Layer, Model) or not isinstance(obj, JsObject) or isinstance(obj, JsClass):
            return False
        base = _ts_layer_base() if cls is Layer else _tensor.tf_js.keras.Model
        try:
            return bool(_instance_of(obj._js, base))
        except Exception:  # noqa: BLE001
            return False


class Layer(_Base, metaclass=_KerasMeta):
    """``tf.keras.layers.Layer``: subclass it, define ``build(input_shape)`` (with
    ``self.add_weight``) and ``call(inputs)``."""

    _twin_kind = "PythonLayer"

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        dtype = _dtype_name(dtype)
        _Base.__init__(self, trainable=trainable, name=name, dtype=dtype, dynamic=dynamic or None, **kwargs)


class Model(_Base, metaclass=_KerasMeta):
    """``tf.keras.Model``: subclass it (layers as attributes in ``__init__``, the forward pass in
    ``call``), or call it with ``inputs`` and ``outputs`` for a functional model."""

    _twin_kind = "PythonModel"

    def __new__(cls, *args, **kwargs):
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            return _functional(*args, **kwargs)
        return object.__new__(cls)

    def __init__(self, *args, name=None, trainable=True, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError(
                f"{type(self).__name__}: a subclass of Model calling super().__init__(inputs, outputs) "
                "is not supported; build the functional model with tf.keras.Model(inputs, outputs)"
            )
        _Base.__init__(self, name=name, trainable=trainable, **kwargs)

    def fit(self, *args, **kwargs):
        self._refuse_override("train_step", "fit")
        return self._twin.fit(*args, **kwargs)

    def evaluate(self, *args, **kwargs):
        self._refuse_override("test_step", "evaluate")
        return self._twin.evaluate(*args, **kwargs)

    def predict(self, *args, **kwargs):
        self._refuse_override("predict_step", "predict")
        return self._twin.predict(*args, **kwargs)

    def _refuse_override(self, step, method):
        if hasattr(type(self), step):
            raise NotImplementedError(
                f"{type(self).__name__}.{step}: {method} runs Keras's own step here and does not call an "
                f"overridden {step}; write the loop with tf.GradientTape instead"
            )

    def build(self, input_shape):
        """Keras's ``Model.build``: calls the model on a batch of zeros of ``input_shape``
        (None sizes as 1), which builds its layers."""
        if self.__dict__.get("_in_build_hook") or self.built:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        import tensorflow as tf

        self(tf.zeros([1 if d is None else int(d) for d in input_shape]))


def _dtype_name(dtype):
    return None if dtype is None else str(getattr(dtype, "name", dtype))


def _functional(*args, **kwargs):
    return JsClass(_tensor.tf_js.keras.Model)(*args, **kwargs)
