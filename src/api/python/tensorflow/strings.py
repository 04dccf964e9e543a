"""tf.strings on the host: TensorFlow's string tensors are Python strings here (a ``str`` with
``numpy()`` giving bytes, as TensorFlow's scalar string tensors do)."""

from . import _tensor


class _String(str):
    """A scalar tf.string value."""

    dtype = _tensor.string
    shape = _tensor.TensorShape(())

    def numpy(self):
        return self.encode()


def _text(value, summarize=3):
    if isinstance(value, _tensor.Tensor):
        return _tensor._print_text(value.tolist(), value.dtype.is_floating, summarize)
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001  TensorFlow's name shadows the builtin
    """Fills each ``placeholder`` with one input printed as tf.print prints it."""
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: {len(pieces) - 1} vs. {len(inputs)}")
    out = pieces[0]
    for value, piece in zip(inputs, pieces[1:]):
        out += _text(value, summarize) + piece
    return _String(out)


def length(input, unit="BYTE", name=None):  # noqa: A002  TensorFlow's parameter name shadows the builtin
    """Length in bytes (``unit="UTF8_CHAR"``: characters), as an int32 scalar tensor."""
    import tensorflow as tf

    text = _text(input)
    n = len(text) if unit == "UTF8_CHAR" else len(text.encode())
    return tf.constant(n, dtype=tf.int32)


def join(inputs, separator="", name=None):
    return _String(separator.join(_text(v) for v in inputs))
