"""torch.Tensor: a Python handle on one engine tensor, with PyTorch's operators, indexing,
properties and printing. Every value is computed by the engine; this class only translates.

Lifetime: a Tensor that Python got fresh from an op owns its engine tensor and disposes it in
``__del__``, i.e. as soon as CPython's reference count drops to zero, as PyTorch frees memory.
Handles on tensors the engine holds (parameters, ``.grad``) never dispose them (ownership.ts).
"""

import builtins

from . import _bridge as b
from . import _numpy, _types
from . import _numpy_engine as _engine
from . import _return_types as return_types  # noqa: F401  torch.return_types (max, min, sort, topk)

host = b.host
# Bound once: reading a member of a JS object makes a new proxy each time (about 2 µs here).
_tensor_op = host.tensorOp
_release = host.release
_new_object = object.__new__
_ENGINE_OPS = {}  # name → bridge.ts tensorOpFor(name), for the operators (_operator)


def _engine_dtype(value):
    """A dtype argument (torch.float32, 'float32', …) as the engine's name; None if absent."""
    if value is None:
        return None
    if isinstance(value, _types.dtype):
        return value.engine
    name = str(value).removeprefix("torch.")
    if name in _types._ALL:
        return _types._ALL[name].engine
    raise TypeError(f"unknown dtype {value!r}")


def _arg(value):
    """A Python argument of ``to``-like methods in the engine's spelling."""
    if isinstance(value, _types.dtype):
        return value.engine
    if isinstance(value, _types.device):
        return value._js_value()
    if isinstance(value, str):
        try:
            return _types.device(value)._js_value()
        except RuntimeError:
            return value
    return value


def _shape_args(args):
    """``view(2, 3)`` and ``view((2, 3))`` alike: a list of ints."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return [builtins.int(d) for d in args[0]]
    return [builtins.int(d) for d in args]


def _operator(name, is_bool=False):
    """A binary operator (``+``, ``@``, ``<``, …) of an engine op that always makes a new tensor.
    The common case, a Python int or float or another tensor with no NumPy array tied to either
    side, goes straight to the engine (bridge.ts ``tensorOpFor(name)``, made once per operator:
    one crossing, no argument conversion, no name to convert);
    anything else the general way (``Tensor._op``), which converts and syncs every kind of
    argument. Both give the same values and errors."""

    if name not in _ENGINE_OPS:
        _ENGINE_OPS[name] = host.tensorOpFor(name)

    def op(self, other):
        if self._np is None:
            kind = type(other)
            if kind is int or kind is float:
                arg = other
            elif isinstance(other, Tensor) and other._np is None:
                arg = other._js
            else:
                arg = op  # not plain: the general way below
            if arg is not op:
                # Tensor._fast, written out here: a call less on every operator.
                try:
                    js = _ENGINE_OPS[name](self._js, arg)
                except b.JsException as error:
                    raise b.translate(error) from None
                out = _new_object(Tensor)
                out._js = js
                out._bool = is_bool
                out._np = None
                return out
        out = self._op(name, other)
        if is_bool:
            out._bool = True
        return out

    op.__name__ = f"__{name}__"
    return op


class Tensor:
    # _np: None, or the _numpy.Shared record of the NumPy arrays this tensor is tied to and the
    # NumPy dtype it stands for (torch.from_numpy, t.numpy()).
    __slots__ = ("_js", "_bool", "_np", "__weakref__")
    __array_priority__ = 1000  # NumPy's operators defer to ours (ndarray + tensor is a tensor)

    def __new__(cls, *args, device=None):
        """PyTorch's legacy constructor: ``torch.Tensor([1, 2])`` (float data) or
        ``torch.Tensor(2, 3)`` (a tensor of that size; zeros here)."""
        import torch

        if len(args) == 1 and (isinstance(args[0], (list, tuple)) or _numpy.is_ndarray(args[0])):
            return torch.tensor(args[0], dtype=torch.float32, device=device)
        return torch.zeros(*args, device=device)

    @classmethod
    def _wrap(cls, js, fresh, is_bool=False):
        host.retain(js, fresh)
        return cls._adopted(js, is_bool)

    @classmethod
    def _adopted(cls, js, is_bool=False):
        """The wrapper of an engine tensor already retained for it (bridge.ts ``adopt``)."""
        t = object.__new__(cls)
        t._js = js
        t._bool = is_bool
        t._np = None
        return t

    def __del__(self):
        js = getattr(self, "_js", None)
        if js is not None:
            _release(js)

    def _fast(self, name, *args):
        """``name`` of the engine tensor with plain arguments (numbers, engine tensors) when the op
        always makes a new plain tensor: one crossing (bridge.ts ``tensorOp``)."""
        try:
            js = _tensor_op(self._js, name, *args)
        except b.JsException as error:
            raise b.translate(error) from None
        t = object.__new__(Tensor)
        t._js = js
        t._bool = False
        t._np = None
        return t

    def _op(self, name, *args, **kwargs):
        return self._call(name, getattr(self._js, name), args, kwargs)

    def _call(self, name, member, args, kwargs):
        """``_op`` with the engine tensor's method ``name`` already read (``member``)."""
        shared = self._np
        if shared is None:
            return b.call(member, *args, **kwargs)
        shared.before_read(_engine, self._js)
        out = b.call(member, *args, **kwargs)
        if name[-1] == "_" and shared.tied:  # in place: the tied arrays see it, as in PyTorch
            shared.after_write(_engine, self._js)
        return out

    def _unary(self, name):
        """An op without arguments that makes a new tensor (``neg``, ``abs``)."""
        return self._op(name) if self._np is not None else self._fast(name)

    def _sync(self):
        """Copies in what NumPy wrote into an array tied to this tensor (torch/_numpy.py)."""
        if self._np is not None:
            self._np.before_read(_engine, self._js)

    def _same_dtype(self, out):
        """``out`` (a copy or view of this tensor's values) stands for the same NumPy dtype."""
        if self._np is not None and self._np.dtype is not None:
            out._np = _numpy.Shared(self._np.dtype)
        return out

    def _cmp(self, name, other, *args):
        out = self._op(name, other, *args)
        out._bool = True
        return out

    # ------------------------------------------------------------------ what it is
    @property
    def shape(self):
        return _types.Size(self._js.shape)

    def size(self, dim=None):
        shape = self.shape
        return shape if dim is None else shape[dim]

    @property
    def dtype(self):
        if self._np is not None and self._np.dtype is not None:
            return _types._ALL[self._np.dtype]
        return _types.from_engine(self._js.dtype, self._bool)

    @property
    def device(self):
        return _types.from_engine_device(self._js.device)

    @property
    def is_cuda(self):
        return builtins.bool(self._js.isCuda)

    @property
    def ndim(self):
        return self._js.ndim

    def dim(self):
        return self._js.ndim

    def numel(self):
        return self._js.numel()

    nelement = numel

    def element_size(self):
        return 4

    def is_floating_point(self):
        return self.dtype.is_floating_point

    @property
    def requires_grad(self):
        return builtins.bool(self._js.requiresGrad)

    @requires_grad.setter
    def requires_grad(self, value):
        try:
            self._js.requiresGrad = builtins.bool(value)
        except b.JsException as error:
            raise b.translate(error) from None

    def requires_grad_(self, requires_grad=True):
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        return b.from_js(self._js.grad, fresh=False)

    @grad.setter
    def grad(self, value):
        if value is not None:
            host.disown(value._js)  # the engine holds the gradient now
        # None must arrive as null: Pyodide passes a Python None as undefined.
        self._js.grad = b.jsnull if value is None else value._js

    @property
    def grad_fn(self):
        node = self._js.gradFn
        return None if node is None or node is b.jsnull else _grad_fn(node.name)

    @property
    def is_leaf(self):
        return builtins.bool(self._js.isLeaf)

    @property
    def data(self):
        return self.detach()

    @property
    def T(self):
        return self._op("t") if self.ndim <= 2 else self.permute(*reversed(range(self.ndim)))

    # ------------------------------------------------------------------ reading values
    def tolist(self):
        self._sync()
        values = b.wait(self._js.tolist())
        if self.ndim == 0:
            return self._scalar(values)
        values = values.to_py()
        return _map_nested(values, self._scalar)

    def _scalar(self, v):
        if self._bool:
            return builtins.bool(v)
        return builtins.float(v) if self._js.dtype == "float32" else builtins.int(v)

    def item(self):
        self._sync()
        return self._scalar(b.wait(self._js.item()))

    def __repr__(self):
        self._sync()
        text = b.wait(host.formatTensor(self._js, self._bool))
        return _numpy.repr_with_dtype(text, self.dtype.name)

    def __format__(self, spec):
        if spec and self.numel() == 1:
            return format(self.item(), spec)
        return format(repr(self), spec)

    def __float__(self):
        return builtins.float(self.item())

    def __int__(self):
        return builtins.int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return builtins.int(self.item())

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return builtins.bool(self.item())

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._js.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(len(self)):
            yield self[i]

    def numpy(self, *, force=False):
        """The values as an ndarray tied to this CPU tensor (shared memory, emulated: see
        torch/_numpy.py). ``force``: detach and copy to the CPU first, as PyTorch's."""
        if force:
            return self.detach().cpu().numpy()
        if self._js.device != "cpu":
            raise TypeError(
                f"can't convert {self.device} device type tensor to numpy. "
                "Use Tensor.cpu() to copy the tensor to host memory first."
            )
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        default = "bool" if self._bool else "float32" if self._js.dtype == "float32" else "int64"
        array, self._np = _numpy.numpy_of(_engine, self._js, self._np, default)
        return array

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(t)``, ``np.array(t)``: ``numpy()``, as PyTorch's."""
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A NumPy ufunc of a tensor (``np.sin(t)``) is a tensor, as in PyTorch (bools as uint8)."""
        import torch

        if array.dtype == bool:
            array = array.astype("uint8")
        return torch.from_numpy(array)

    # ------------------------------------------------------------------ autograd
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if gradient is None and retain_graph is None and inputs is None:
            b.call(self._js.backward)
        else:
            b.call(self._js.backward, gradient, retain_graph=retain_graph, inputs=inputs)

    def detach(self):
        return self._same_dtype(self._op("detach"))

    def detach_(self):
        self._op("detach_")
        return self

    def clone(self):
        out = self._op("clone")
        out._bool = self._bool
        return self._same_dtype(out)

    # ------------------------------------------------------------------ devices and dtypes
    def to(self, *args, **kwargs):
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        kwargs.pop("non_blocking", None)
        kwargs.pop("copy", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        js_args = [_arg(a) for a in args if a is not None]
        if device is not None:
            js_args.append(_types.device_arg(device))
        if dtype is not None:
            js_args.append(_engine_dtype(dtype))
        is_bool = self._bool
        for a in (*args, dtype):
            if isinstance(a, _types.dtype):
                is_bool = a is _types.bool
            elif isinstance(a, Tensor):
                is_bool = a._bool
        out = self._op("to", *js_args)
        out._bool = is_bool
        names_dtype = dtype is not None or any(
            isinstance(a, (_types.dtype, Tensor)) or (isinstance(a, str) and a.removeprefix("torch.") in _types._ALL)
            for a in args
        )
        return out if names_dtype else self._same_dtype(out)

    def cuda(self, device=None, non_blocking=False):
        return self._same_dtype(self._op("cuda", _types.device_arg(device if device is not None else 0)))

    def cpu(self):
        out = self._op("cpu")
        out._bool = self._bool
        return out if out is self else self._same_dtype(out)

    def type(self, dtype=None):
        if dtype is None:
            return "torch.cuda.FloatTensor" if self.is_cuda else "torch.FloatTensor"
        return self.to(dtype)

    def float(self):
        return self._op("float")

    double = float
    half = float

    def long(self):
        return self._op("int")

    int = long

    def bool(self):
        return self._cmp("ne", 0)

    # ------------------------------------------------------------------ operators
    __add__ = __radd__ = _operator("add")
    __sub__ = _operator("sub")

    def __rsub__(self, other):
        return self._unary("neg")._op("add", other)

    __mul__ = __rmul__ = _operator("mul")
    __truediv__ = _operator("div")

    def __rtruediv__(self, other):
        return self._unary("reciprocal")._op("mul", other)

    def _integral(self, other):
        """Both operands integers: PyTorch keeps an integer result for //, % and **."""
        mine = self._js.dtype == "int32"
        if isinstance(other, Tensor):
            return mine and other._js.dtype == "int32"
        return mine and isinstance(other, builtins.int)

    def _as_int_if(self, integral):
        return self._op("int") if integral else self

    def __floordiv__(self, other):
        return self._op("div", other)._op("floor")._as_int_if(self._integral(other))

    def __mod__(self, other):
        out = self - (self._op("div", other)._op("floor")) * other
        return out._as_int_if(self._integral(other))

    def __pow__(self, other):
        negative = isinstance(other, builtins.int) and other < 0
        return self._op("pow", other)._as_int_if(self._integral(other) and not negative)

    def __rpow__(self, other):
        base = b.call(host.torch.fullLike, self, other, dtype="float32")
        return base._op("pow", self)._as_int_if(self._integral(other))

    __matmul__ = _operator("matmul")

    def __rmatmul__(self, other):
        return b.call(host.torch.matmul, other, self)

    def __neg__(self):
        return self._unary("neg")

    def __pos__(self):
        return self

    def __abs__(self):
        return self._unary("abs")

    def __invert__(self):
        if not self._bool:
            raise TypeError("~ is only supported on bool tensors here")
        return self._cmp("eq", 0)

    def __and__(self, other):
        out = self._op("mul", other)
        out._bool = self._bool
        return out

    __rand__ = __and__

    def __or__(self, other):
        out = self._op("maximum", other)
        out._bool = self._bool
        return out

    __ror__ = __or__

    def __iadd__(self, other):
        return self._op("add_", other)

    def __isub__(self, other):
        return self._op("sub_", other)

    def __imul__(self, other):
        return self._op("mul_", other)

    def __itruediv__(self, other):
        return self._op("div_", other)

    __eq__ = _operator("eq", is_bool=True)
    __ne__ = _operator("ne", is_bool=True)
    __lt__ = _operator("lt", is_bool=True)
    __le__ = _operator("le", is_bool=True)
    __gt__ = _operator("gt", is_bool=True)
    __ge__ = _operator("ge", is_bool=True)

    __hash__ = object.__hash__

    eq = __eq__
    ne = __ne__
    lt = __lt__
    le = __le__
    gt = __gt__
    ge = __ge__

    # ------------------------------------------------------------------ indexing
    def __getitem__(self, index):
        from ._indexing import getitem

        shared = self._np
        if shared is None or type(index) is not builtins.int:
            return getitem(self, index)
        # One row (a DataLoader's dataset[i]): only that row of the tied arrays is compared.
        shared.before_row_read(_engine, self._js, index)
        shared.skip = True
        try:
            return getitem(self, index)
        finally:
            shared.skip = False

    def __setitem__(self, index, value):
        from ._indexing import setitem

        self._sync()
        setitem(self, index, value)
        if self._np is not None and self._np.tied:
            self._np.after_write(_engine, self._js)

    # ------------------------------------------------------------------ shapes (varargs or a tuple)
    def view(self, *shape):
        return self._op("view", _shape_args(shape))

    def reshape(self, *shape):
        return self._op("reshape", _shape_args(shape))

    def expand(self, *sizes):
        return self._op("expand", _shape_args(sizes))

    def permute(self, *dims):
        return self._op("permute", _shape_args(dims))

    def repeat(self, *sizes):
        return self._op("repeat", _shape_args(sizes))

    # PyTorch returns tuples of views here; the engine's arrays arrive as lists.
    def split(self, split_size, dim=0):
        return tuple(self._op("split", split_size, dim))

    def chunk(self, chunks, dim=0):
        return tuple(self._op("chunk", chunks, dim))

    def unbind(self, dim=0):
        return tuple(self._op("unbind", dim))

    def tensor_split(self, indices_or_sections, dim=0):
        return tuple(self._op("tensorSplit", indices_or_sections, dim))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return self._cmp("isclose", other, rtol, atol, equal_nan)

    def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        if isinstance(dim, builtins.bool):  # var(False): PyTorch's unbiased as the first argument
            dim, unbiased = None, dim
        return self._op("var", dim, unbiased, keepdim, correction=correction)

    def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        if isinstance(dim, builtins.bool):
            dim, unbiased = None, dim
        return self._op("std", dim, unbiased, keepdim, correction=correction)

    def all(self, dim=None, keepdim=False):
        out = (self != 0).min() if dim is None else (self != 0).amin(dim, keepdim=keepdim or None)
        out._bool = True
        return out

    def any(self, dim=None, keepdim=False):
        out = (self != 0).max() if dim is None else (self != 0).amax(dim, keepdim=keepdim or None)
        out._bool = True
        return out

    def max(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return self._op("maximum", dim)
        return self._op("max", dim, keepdim=keepdim or None)

    def min(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return self._op("minimum", dim)
        return self._op("min", dim, keepdim=keepdim or None)

    def equal(self, other):
        import torch

        return torch.equal(self, other)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        import torch

        return torch.allclose(self, other, rtol, atol, equal_nan)

    # ------------------------------------------------------------------ everything else
    def __getattr__(self, name):
        if name.startswith("__") or name in ("_js", "_bool", "_np"):
            raise AttributeError(name)
        js_name = b.camel(name)
        try:
            member = getattr(self._js, js_name)
        except AttributeError:
            raise AttributeError(f"'Tensor' object has no attribute '{name}'") from None
        if callable(member):
            # The closure holds self: a temporary's engine tensor must outlive the call.
            return lambda *args, **kwargs: self._call(js_name, member, args, kwargs)
        return b.from_js(member, fresh=False)


class _GradFn:
    """``t.grad_fn``: prints as PyTorch's ``<AddBackward0 object at 0x…>``."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name

    def __repr__(self):
        return f"<{self._name} object at {hex(id(self))}>"


_grad_fn_types = {}


def _grad_fn(name):
    """A grad_fn whose type is named after its node, as PyTorch's are (``type(t.grad_fn).__name__``
    is ``AddBackward0`` there): one subclass of _GradFn per name, made once."""
    cls = _grad_fn_types.get(name)
    if cls is None:
        cls = _grad_fn_types[name] = type(name, (_GradFn,), {"__slots__": ()})
    return cls(name)


def _map_nested(values, fn):
    if isinstance(values, list):
        return [_map_nested(v, fn) for v in values]
    return fn(values)


b._tensor_type = Tensor
