"""torch/_numpy.py (tensors ⇄ NumPy arrays) under Debian's CPython with real NumPy, for
numpy-conversions.test.ts. The engine is replaced by a pure-Python stand-in behind the module's
three-function interface (export / import_ / assign); values and dtypes are checked against NumPy
itself on random arrays, and dtypes and error messages against real PyTorch when it is installed.
Prints ``{case: "ok" | what failed}`` as JSON. Usage: numpy_cases.py <src/api/python>
"""

import array
import gc
import importlib.util
import json
import sys
import traceback

import numpy as np

spec = importlib.util.spec_from_file_location("gpubook_numpy", f"{sys.argv[1]}/torch/_numpy.py")
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)

try:
    import torch as real_torch
except ImportError:
    real_torch = None

rng = np.random.default_rng(20261128)
results = {}


def case(fn):
    try:
        fn()
        results[fn.__name__] = "ok"
    except Exception:
        results[fn.__name__] = traceback.format_exc()
    return fn


# ------------------------------------------------------------------ the engine stand-in
class Handle:
    """An engine tensor: a flat array.array of float32 ('f') or int32 ('i'), a shape, a device."""

    def __init__(self, values, dtype, shape, device):
        self.values, self.dtype, self.shape, self.device = values, dtype, tuple(shape), device


class Engine:
    imports = 0

    @staticmethod
    def export(h):
        return memoryview(bytearray(h.values.tobytes())), h.dtype, h.shape

    @classmethod
    def import_(cls, buffer, dtype, shape, device):
        cls.imports += 1
        values = array.array("f" if dtype == "float32" else "i")
        values.frombytes(bytes(memoryview(buffer).cast("B")))
        n = 1
        for d in shape:
            n *= d
        assert len(values) == n, (len(values), shape)
        return Handle(values, dtype, shape, device)

    @staticmethod
    def assign(h, buffer):
        fresh = Engine.import_(buffer, h.dtype, h.shape, h.device)
        h.values = fresh.values

    @staticmethod
    def add_(h, k):  # an in-place engine op (the stand-in computes element by element)
        h.values = array.array(h.values.typecode, [v + k for v in h.values])


class Tensor:
    """The calls torch/_tensor.py makes: reads and ops sync first (before_read), in-place ops
    refresh tied arrays (after_write), numpy() goes through numpy_of."""

    def __init__(self, handle, shared=None, is_bool=False):
        self.h, self.np, self.bool = handle, shared, is_bool

    def numpy(self):
        default = "bool" if self.bool else "float32" if self.h.dtype == "float32" else "int64"
        out, self.np = g.numpy_of(Engine, self.h, self.np, default)
        return out

    def values(self):
        if self.np is not None:
            self.np.before_read(Engine, self.h)
        return list(self.h.values)

    def add_(self, k):
        if self.np is not None:
            self.np.before_read(Engine, self.h)
        Engine.add_(self.h, k)
        if self.np is not None and self.np.tied:
            self.np.after_write(Engine, self.h)


def ones(n):
    return Tensor(Handle(array.array("f", [1.0] * n), "float32", (n,), "cpu"))


def from_numpy(a):
    h, shared = g.from_numpy(Engine, a)
    return Tensor(h, shared, a.dtype == bool)


def random_array(dtype, shape):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("float"):
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -(2**31)), min(info.max, 2**31 - 1)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
SHAPES = [(), (7,), (0, 3), (3, 4, 5)]


def error_of(fn):
    try:
        fn()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return None


# ------------------------------------------------------------------ cases
@case
def round_trip_every_dtype_and_layout():
    """An array into the engine and back: NumPy's own values at the engine's precision (floats as
    float32, integers as int32), the dtype, the shape; row-major in the engine whatever the
    strides; a fresh writable array sharing nothing; one import per conversion."""
    for dtype in DTYPES:
        for shape in SHAPES:
            base = random_array(dtype, shape)
            layouts = [base]
            if base.ndim >= 2:
                layouts += [base.T, base[:, ::2], np.asfortranarray(base)]
            for a in layouts:
                before = Engine.imports
                h = g.to_engine(Engine, a, "cpu")
                assert Engine.imports == before + 1
                stored = np.float32 if a.dtype.kind == "f" else np.int32
                assert h.shape == a.shape and h.dtype == ("float32" if stored is np.float32 else "int32")
                np.testing.assert_array_equal(np.array(h.values, dtype=stored), a.astype(stored).ravel(order="C"))
                out = g.to_array(Engine, h, a.dtype.name)
                expected = a.astype(stored).astype(a.dtype)
                assert out.dtype == a.dtype and out.shape == a.shape, (out.dtype, out.shape, a.dtype, a.shape)
                np.testing.assert_array_equal(out, expected)
                assert out.flags.writeable and out.flags.c_contiguous
                assert not np.shares_memory(out, a)


@case
def engine_precision_is_float32_for_float64():
    """float64 goes through float32 (the engine's storage; documented): values equal NumPy's own
    float32 rounding, not the float64 originals."""
    a = rng.standard_normal(50)
    out = g.to_array(Engine, g.to_engine(Engine, a, "cpu"), "float64")
    np.testing.assert_array_equal(out, a.astype(np.float32).astype(np.float64))
    np.testing.assert_allclose(out, a, rtol=1e-7)


@case
def dtypes_as_pytorch_names_them():
    """from_numpy keeps the array's dtype as PyTorch prints it (torch.float64, torch.int32, …),
    and numpy() of it has the same dtype: checked against real PyTorch."""
    for dtype in DTYPES:
        a = random_array(dtype, (3, 2))
        t = from_numpy(a)
        assert t.np.dtype == dtype
        assert t.numpy().dtype == a.dtype
        if real_torch is not None:
            real = real_torch.from_numpy(a.copy())
            assert str(real.dtype) == f"torch.{t.np.dtype}", (real.dtype, t.np.dtype)
            assert real.numpy().dtype == t.numpy().dtype


@case
def default_dtypes_of_engine_tensors():
    """numpy() of tensors not made from NumPy: float32, int64 for the engine's int32 (PyTorch's
    default integer type), bool for a bool tensor; as real PyTorch's."""
    f = Tensor(Handle(array.array("f", [1.5, -2.0]), "float32", (2,), "cpu"))
    i = Tensor(Handle(array.array("i", [3, -4]), "int32", (2,), "cpu"))
    b = Tensor(Handle(array.array("i", [1, 0]), "int32", (2,), "cpu"), is_bool=True)
    assert f.numpy().dtype == np.float32 and i.numpy().dtype == np.int64 and b.numpy().dtype == np.bool_
    np.testing.assert_array_equal(b.numpy(), [True, False])
    np.testing.assert_array_equal(i.numpy(), [3, -4])
    zero_d = Tensor(Handle(array.array("f", [2.5]), "float32", (), "cpu")).numpy()
    assert isinstance(zero_d, np.ndarray) and zero_d.shape == () and zero_d == 2.5
    if real_torch is not None:
        assert real_torch.ones(2).numpy().dtype == np.float32
        assert real_torch.tensor([1, 2]).numpy().dtype == np.int64
        assert real_torch.tensor([True]).numpy().dtype == np.bool_
        assert real_torch.tensor(2.5).numpy().shape == ()


@case
def tutorial_tensor_to_numpy_shares_memory():
    """PyTorch's tutorial: t = torch.ones(5); n = t.numpy(); t.add_(1); print(n)."""
    t = ones(5)
    n = t.numpy()
    t.add_(1)
    assert str(n) == "[2. 2. 2. 2. 2.]", str(n)
    if real_torch is not None:
        rt = real_torch.ones(5)
        rn = rt.numpy()
        rt.add_(1)
        assert str(rn) == str(n)


@case
def tutorial_numpy_to_tensor_shares_memory():
    """n = np.ones(5); t = torch.from_numpy(n); np.add(n, 1, out=n): t reads 2s, still float64."""
    n = np.ones(5)
    t = from_numpy(n)
    imports = Engine.imports
    np.add(n, 1, out=n)
    assert t.values() == [2.0] * 5 and t.np.dtype == "float64"
    assert Engine.imports == imports + 1  # one bulk copy in
    assert t.values() == [2.0] * 5 and Engine.imports == imports + 1  # unchanged: no copy
    if real_torch is not None:
        rn = np.ones(5)
        rt = real_torch.from_numpy(rn)
        np.add(rn, 1, out=rn)
        assert repr(rt) == "tensor([2., 2., 2., 2., 2.], dtype=torch.float64)"
        assert rt.tolist() == t.values()


@case
def from_numpy_in_place_ops_write_the_array():
    """t.add_ on a from_numpy tensor changes the array (as PyTorch's shared memory)."""
    n = rng.integers(-50, 50, size=6).astype(np.int32)
    expected = n + 3
    t = from_numpy(n)
    t.add_(3)
    np.testing.assert_array_equal(n, expected)
    assert np.shares_memory(t.numpy(), n)  # numpy() of it is a view of the same array


@case
def exported_arrays_written_by_numpy():
    """n = t.numpy(); n[1] = 7: the tensor reads 7, and a second exported array follows too."""
    t = Tensor(Handle(array.array("f", rng.standard_normal(4).astype(np.float32)), "float32", (4,), "cpu"))
    n1, n2 = t.numpy(), t.numpy()
    n1[1] = 7
    assert t.values()[1] == 7.0 and n2[1] == 7.0
    t.add_(1)
    assert n1[1] == 8.0 and n2[1] == 8.0


@case
def exported_arrays_are_held_weakly():
    t = ones(3)
    t.numpy()
    gc.collect()
    assert t.np.arrays() == []
    t.add_(1)  # nothing to refresh, no error
    assert t.values() == [2.0, 2.0, 2.0]


@case
def strided_source_keeps_its_strides():
    """from_numpy of a transposed array: the tensor's values are row-major, the array keeps its
    strides; NumPy writing the original shows in the tensor."""
    base = rng.standard_normal((3, 4))
    a = base.T
    t = from_numpy(a)
    np.testing.assert_array_equal(np.array(t.values(), dtype=np.float32), a.astype(np.float32).ravel())
    base[0, 1] = 42
    assert t.values()[1 * 3 + 0] == 42.0  # a[1, 0] is base[0, 1]


@case
def numpy_scalars():
    for value, name in ((np.float64(2.5), "float64"), (np.float32(-1.25), "float32"), (np.int64(7), "int64")):
        a = g.as_array(value)
        assert a.shape == () and a.dtype.name == name
        out = g.to_array(Engine, g.to_engine(Engine, a, "cpu"), name)
        assert out.shape == () and out == value
    assert g.as_array(2.5) is None and g.as_array([1, 2]) is None
    assert g.is_numpy(np.ones(2)) and g.is_numpy(np.int64(1)) and not g.is_numpy(1)


@case
def errors_as_pytorch_words_them():
    """Unsupported dtypes, non-native byte order, a list for from_numpy: PyTorch's exceptions and
    messages (checked against real PyTorch when installed); complex: our own (no complex engine)."""
    bad = [np.array(["a"]), np.array([1], dtype=np.uint16), np.array([1], dtype=np.uint32), np.ones(2, dtype=">f8")]
    for a in bad:
        ours = error_of(lambda a=a: g.from_numpy(Engine, a))
        assert ours is not None and ours.startswith(
            ("TypeError: can't convert np.ndarray", "ValueError: given numpy")
        ), ours
        if real_torch is not None:
            assert ours == error_of(lambda a=a: real_torch.from_numpy(a)), (
                ours,
                error_of(lambda a=a: real_torch.from_numpy(a)),
            )
    assert error_of(lambda: g.from_numpy(Engine, [1.0])) == "TypeError: expected np.ndarray (got list)"
    if real_torch is not None:
        assert error_of(lambda: real_torch.from_numpy([1.0])) == "TypeError: expected np.ndarray (got list)"
    assert error_of(lambda: g.check_convertible(np.ones(2, dtype=np.complex64))).startswith(
        "TypeError: can't convert np.ndarray of type numpy.complex64"
    )


@case
def big_endian_for_tensorflow():
    """TensorFlow converts other byte orders: values equal NumPy's own."""
    for dtype in (">f8", ">f4", ">i4", ">i8"):
        a = random_array(np.dtype(dtype).newbyteorder("=").name, (4, 3)).astype(dtype)
        g.check_convertible(a, byte_order=False)
        native = a.astype(a.dtype.newbyteorder("="))
        out = g.to_array(Engine, g.to_engine(Engine, a, "tf"), native.dtype.name)
        stored = np.float32 if a.dtype.kind == "f" else np.int32
        np.testing.assert_array_equal(out, native.astype(stored).astype(native.dtype))


@case
def tensorflow_numpy_values():
    """tf's numpy(): float32 / int32 / bool arrays (TensorFlow's dtypes), a NumPy scalar for 0-d
    (``out[()]``, as the face does), float64 kept for a tensor made from a float64 array."""
    x = rng.standard_normal((2, 3)).astype(np.float32)
    h = g.to_engine(Engine, x, "tf")
    np.testing.assert_array_equal(g.to_array(Engine, h, "float32"), x)
    i = g.to_array(Engine, g.to_engine(Engine, np.arange(4, dtype=np.int32), "tf"), "int32")
    assert i.dtype == np.int32
    s = g.to_array(Engine, g.to_engine(Engine, np.float32(1.5), "tf"), "float32")[()]
    assert isinstance(s, np.float32) and s == 1.5
    d = rng.standard_normal(3)
    out = g.to_array(Engine, g.to_engine(Engine, d, "tf"), "float64")
    assert out.dtype == np.float64


@case
def without_numpy_the_error_says_how_to_get_it():
    saved = sys.modules.get("numpy")
    sys.modules["numpy"] = None  # import numpy now raises ImportError
    try:
        assert g.loaded() is None
        message = error_of(g.require)
    finally:
        sys.modules["numpy"] = saved
    assert message.startswith("RuntimeError: Numpy is not available") and "import numpy" in message, message


@case
def seed_004_numpy_and_pandas():
    """Seed chapter 004's NumPy/pandas use with our tensors: the history holds Python floats from
    ``.item()`` (as our faces return them); np.argmax/np.argmin over them, list indexing with
    the NumPy integer, and pd.DataFrame(history)."""
    import pandas as pd

    history = {"train_loss": [0.31, 0.11, 0.09], "val_acc": [0.9646000266075134, 0.975, 0.964], "epoch": [1, 2, 3]}
    arr_scores = history["val_acc"]
    best = np.argmax(arr_scores)
    assert best == 1 and arr_scores[best] == 0.975 and len(arr_scores) - best > 1
    assert np.argmin(arr_scores) == 2
    df = pd.DataFrame(history)
    assert list(df.columns) == ["train_loss", "val_acc", "epoch"] and df.shape == (3, 3)
    assert df["epoch"].dtype == np.int64 and df["val_acc"].dtype == np.float64


@case
def repr_dtype_suffix_as_real_pytorch():
    """repr_with_dtype: the engine's repr (what real PyTorch prints for the same values as float32
    or int64, which format.ts matches) plus the dtype, equals real PyTorch's repr of the array's own
    dtype: every dtype, small and summarised (long) tensors, 0-d, empty, requires_grad."""
    # A GPU tensor (no CUDA here): PyTorch prints the device first.
    cuda = g.repr_with_dtype("tensor([1., 2.], device='cuda:0', grad_fn=<MulBackward0>)", "float64")
    assert cuda == "tensor([1., 2.], device='cuda:0', dtype=torch.float64, grad_fn=<MulBackward0>)", cuda
    if real_torch is None:
        return
    for dtype in ["float64", "float16", "int32", "int16", "int8", "uint8", "float32", "int64", "bool"]:
        for shape in [(), (5,), (0,), (3, 4), (2000,)]:
            a = np.asarray(random_array(dtype, shape))
            if dtype.startswith("float"):
                a = np.asarray((a / 8).astype(np.float16).astype(dtype))  # values every float dtype holds exactly
            engine_kind = real_torch.float32 if dtype.startswith("float") else real_torch.int64
            engine_text = repr(real_torch.tensor(a.astype(np.float32 if dtype.startswith("float") else np.int64)))
            if dtype == "bool":
                engine_text = repr(real_torch.from_numpy(a.copy()))
            expected = repr(real_torch.from_numpy(a.copy()))
            assert g.repr_with_dtype(engine_text, dtype) == expected, (dtype, shape, engine_text, expected)
            if dtype.startswith("float") and shape:
                grad_engine = repr(real_torch.tensor(a, dtype=engine_kind, requires_grad=True))
                grad_expected = repr(real_torch.tensor(a, requires_grad=True))
                assert g.repr_with_dtype(grad_engine, dtype) == grad_expected, (grad_engine, grad_expected)
                fn_engine = repr(real_torch.tensor(a, dtype=engine_kind, requires_grad=True) * 2)
                fn_expected = repr(real_torch.tensor(a, requires_grad=True) * 2)
                assert g.repr_with_dtype(fn_engine, dtype) == fn_expected, (fn_engine, fn_expected)


@case
def arguments_for_keras_and_operators():
    """NumPy values passed to the engine (``t + a``, Keras ``fit(x, y)``, ``from_tensor_slices``):
    scalars as Python numbers of their kind, arrays (0-d too) as engine tensors on the device asked
    for with NumPy's values; TensorFlow takes other byte orders, PyTorch refuses them."""
    for value, kind in ((np.int64(3), int), (np.float32(1.5), float), (np.bool_(True), bool), (np.uint8(7), int)):
        out = g.argument(Engine, value, "cpu")
        assert type(out) is kind and out == value, (out, value)
    zero_d = g.argument(Engine, np.array(2.5), "cpu")
    assert isinstance(zero_d, Handle) and zero_d.shape == () and list(zero_d.values) == [2.5]
    x = rng.standard_normal((8, 3))
    h = g.argument(Engine, x, "tf")
    assert h.device == "tf" and h.dtype == "float32" and h.shape == (8, 3)
    np.testing.assert_array_equal(np.array(h.values, dtype=np.float32).reshape(8, 3), x.astype(np.float32))
    y = rng.integers(0, 10, size=8)  # int64 labels
    hy = g.argument(Engine, y, "tf")
    assert hy.dtype == "int32" and list(hy.values) == y.tolist()
    big = x.astype(">f8")
    np.testing.assert_array_equal(
        np.array(g.argument(Engine, big, "tf", byte_order=False).values, dtype=np.float32), x.astype(np.float32).ravel()
    )
    assert error_of(lambda: g.argument(Engine, big, "cpu")).startswith("ValueError: given numpy array has byte order")
    on_gpu = g.argument(Engine, big, "gpu:0", byte_order=False)  # a tf Tensor's operand goes to its device
    assert on_gpu.device == "gpu:0" and on_gpu.shape == (8, 3)


@case
def results_as_arrays_for_predict_and_as_numpy_iterator():
    """Keras's predict returns arrays (a list of them for several outputs); as_numpy_iterator yields
    an element's tuples as tuples of arrays and dicts as dicts, 0-d values as NumPy scalars."""
    a = Tensor(Handle(array.array("f", [1.5, 2.5]), "float32", (2,), "cpu"))
    b = Tensor(Handle(array.array("i", [4]), "int32", (), "cpu"))
    out = g.results_as_arrays([a, {"k": b}], Tensor)
    assert isinstance(out, list) and isinstance(out[0], np.ndarray) and out[0].tolist() == [1.5, 2.5]
    assert out[1]["k"] == 4
    element = g.results_as_arrays([a, [b, a]], Tensor, tuples=True)
    assert isinstance(element, tuple) and isinstance(element[1], tuple) and element[1][0] == 4
    assert g.results_as_arrays("text", Tensor) == "text"


@case
def row_reads_compare_only_their_row():
    """t[i] (a DataLoader's dataset[i]) checks row i only: a change in another row is not copied
    then, but by the next whole read; a change in row i is copied at once (the whole array)."""
    n = rng.standard_normal((4, 3))
    t = from_numpy(n)
    imports = Engine.imports
    n[2, 1] = 99.0
    t.np.before_row_read(Engine, t.h, 0)
    assert Engine.imports == imports  # row 0 unchanged: nothing copied
    t.np.before_row_read(Engine, t.h, 2)
    assert Engine.imports == imports + 1 and t.values()[2 * 3 + 1] == 99.0
    n[3, 0] = -5.0
    t.np.before_row_read(Engine, t.h, 1)
    assert Engine.imports == imports + 1
    assert t.values()[3 * 3 + 0] == -5.0 and Engine.imports == imports + 2  # the whole read sees it
    t.np.before_row_read(Engine, t.h, 10)  # out of range: left to the read's IndexError
    nan = np.array([np.nan, 1.0])
    tn = from_numpy(nan)
    before = Engine.imports
    tn.values()
    assert Engine.imports == before  # NaN equals NaN: not taken as a change


print(json.dumps(results))
