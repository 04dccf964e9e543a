"""``tf.function`` and ``tf.TensorSpec``.

There is no graph compiler here: a ``tf.function`` runs its Python function eagerly, op by op,
every call (so Python side effects happen each call, not only while tracing, and nothing is
faster for it). What it does check is TensorFlow's contract for ``input_signature``: each call's
arguments are converted to tensors and must be compatible with the declared ``TensorSpec``s
(rank, known dimensions, dtype), else TensorFlow's ``TypeError`` ("Binding inputs to tf.function
failed due to `Can not cast …`") is raised, as TensorFlow 2.15 raises it.
"""

import functools
import inspect

from ._tensor import DType, Tensor, as_dtype, float32


def _shape_text(shape):
    if shape is None:
        return "<unknown>"
    dims = ", ".join("None" if d is None else str(d) for d in shape)
    return f"({dims},)" if len(shape) == 1 else f"({dims})"


class TensorSpec:
    """``tf.TensorSpec(shape, dtype=tf.float32, name=None)``: what a tensor argument must be.
    ``None`` in ``shape`` is any size; ``shape=None`` is any rank."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=float32, name=None):
        if shape is not None:
            shape = tuple(None if d is None else int(d) for d in (shape if not isinstance(shape, int) else (shape,)))
        self._shape = shape
        self._dtype = as_dtype(dtype) if not isinstance(dtype, DType) else dtype
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tuple(tensor.shape), tensor.dtype, name)

    @property
    def shape(self):
        from ._tensor import TensorShape

        return None if self._shape is None else TensorShape(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, spec_or_value):
        """Same dtype, and shapes that agree wherever both are known."""
        other = spec_or_value if isinstance(spec_or_value, TensorSpec) else TensorSpec.from_tensor(spec_or_value)
        if other._dtype.name != self._dtype.name:
            return False
        if self._shape is None or other._shape is None:
            return True
        if len(self._shape) != len(other._shape):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._shape, other._shape))

    def __eq__(self, other):
        return (
            isinstance(other, TensorSpec)
            and self._shape == other._shape
            and self._dtype.name == other._dtype.name
            and self._name == other._name
        )

    def __hash__(self):
        return hash((self._shape, self._dtype.name, self._name))

    def __repr__(self):
        return f"TensorSpec(shape={_shape_text(self._shape)}, dtype={self._dtype!r}, name={self._name!r})"


def _convert(value, spec):
    """The argument as a tensor of the spec's dtype where TensorFlow would convert it (Python
    numbers and lists); tensors keep their dtype, so a mismatch is reported, not cast."""
    import tensorflow as tf

    if isinstance(value, Tensor):
        return value
    return tf.constant(value, dtype=spec.dtype)


def _params_text(params, signature):
    parts = [f"{name}: {spec!r}" for name, spec in zip(params, signature)]
    return "(" + ", ".join(parts) + ")"


class Function:
    """What ``tf.function`` returns: the Python function, run eagerly, with its ``input_signature``
    checked on every call. Works on plain functions and as a method decorator (``self`` is not
    part of the signature, as in TensorFlow)."""

    def __init__(self, python_function, input_signature=None, instance=None):
        if input_signature is not None and not isinstance(input_signature, (list, tuple)):
            raise TypeError(f"input_signature must be either a tuple or a list, got {type(input_signature)}.")
        if input_signature is not None:
            for spec in input_signature:
                if not isinstance(spec, TensorSpec):
                    raise TypeError(
                        f"input_signature must be a possibly nested sequence of TensorSpec objects, got {spec!r}"
                    )
        self._python_function = python_function
        self._input_signature = None if input_signature is None else tuple(input_signature)
        self._instance = instance
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return Function(self._python_function, self._input_signature, instance)

    def _param_names(self):
        params = list(inspect.signature(self._python_function).parameters)
        return params[1:] if self._instance is not None else params

    def _bind(self, args, kwargs):
        """The arguments checked against the signature, converted to tensors (TensorFlow binds by
        position or by keyword; with an input_signature every argument must be in it)."""
        signature = self._input_signature
        names = self._param_names()[: len(signature)]
        text = _params_text(names, signature)

        def fail(reason):
            return TypeError(
                f"Binding inputs to tf.function failed due to `{reason}`. Received args: {tuple(args)!r} "
                f"and kwargs: {kwargs!r} for signature: {text}."
            )

        if len(args) > len(signature):
            raise fail("too many positional arguments")
        values = list(args)
        for name in names[len(args) :]:
            if name not in kwargs:
                raise fail(f"missing a required argument: '{name}'")
            values.append(kwargs[name])
        extra = [k for k in kwargs if k not in names[len(args) :]]
        if extra:
            raise fail(f"got an unexpected keyword argument '{extra[0]}'")
        out = []
        for value, spec in zip(values, signature):
            try:
                tensor = _convert(value, spec)
            except (TypeError, ValueError) as error:
                raise fail(f"Can not cast {value!r} to {spec!r}: {error}") from None
            if not spec.is_compatible_with(tensor):
                raise fail(f"Can not cast {TensorSpec.from_tensor(tensor)!r} to {spec!r}")
            out.append(tensor)
        return out

    def __call__(self, *args, **kwargs):
        if self._input_signature is not None:
            args, kwargs = self._bind(args, kwargs), {}
        if self._instance is not None:
            return self._python_function(self._instance, *args, **kwargs)
        return self._python_function(*args, **kwargs)

    def __repr__(self):
        return f"<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function object at {id(self):#x}>"


def function(
    func=None,
    input_signature=None,
    autograph=True,
    jit_compile=None,
    reduce_retracing=False,
    experimental_implements=None,
    experimental_autograph_options=None,
    experimental_attributes=None,
    experimental_relax_shapes=None,
    experimental_compile=None,
    experimental_follow_type_hints=None,
):
    """``@tf.function`` / ``tf.function(f, input_signature=[tf.TensorSpec(...)])``: the function,
    run eagerly on every call (no tracing, no graph: see the module doc), its arguments checked
    against ``input_signature`` as TensorFlow checks them."""
    if func is None:
        return lambda f: Function(f, input_signature)
    return Function(func, input_signature)
