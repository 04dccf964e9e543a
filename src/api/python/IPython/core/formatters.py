"""IPython's display formatter, as gpubook's browser Python has it: an object's ``_repr_*_``
methods become one MIME bundle (nbformat's ``data``) and its metadata.

- Each ``_repr_html_``, ``_repr_markdown_``, ``_repr_svg_``, ``_repr_png_``, ``_repr_jpeg_``,
  ``_repr_latex_``, ``_repr_json_`` and ``_repr_javascript_`` the object has is called; ``None``
  (or ``NotImplementedError``) means "no such representation", a ``(data, metadata)`` tuple
  carries metadata for that type.
- ``_repr_mimebundle_(include=None, exclude=None)`` gives several types at once (a dict, or a
  ``(data, metadata)`` tuple); the ``_repr_*_`` methods fill in the types it did not give.
- ``text/plain`` is always there: the object's ``repr`` (unless the bundle gave one).
- PNG and JPEG bytes become base64 text, as Jupyter stores them; JSON must be a dict or a list.
- A ``_repr_*_`` that raises has its traceback written to ``sys.stderr`` and that type is left
  out (the others still show), as IPython does; a wrong return type is a ``FormatterWarning``.

Pure Python with no Pyodide import, so it runs and is tested under CPython too.
"""

import base64
import sys
import traceback
import warnings

__all__ = ["FORMAT_METHODS", "FormatterWarning", "format_display_data", "has_rich_repr"]


class FormatterWarning(UserWarning):
    """A ``_repr_*_`` method returned something that is not its MIME type's kind of value."""


# MIME type -> (method, accepted return types), in the order IPython's formatters run.
FORMAT_METHODS = {
    "text/html": ("_repr_html_", (str,)),
    "text/markdown": ("_repr_markdown_", (str,)),
    "image/svg+xml": ("_repr_svg_", (str, bytes)),
    "image/png": ("_repr_png_", (bytes, str)),
    "image/jpeg": ("_repr_jpeg_", (bytes, str)),
    "text/latex": ("_repr_latex_", (str,)),
    "application/json": ("_repr_json_", (dict, list)),
    "application/javascript": ("_repr_javascript_", (str,)),
}

_BASE64_TYPES = ("image/png", "image/jpeg")


def _method(obj, name):
    """A bound method ``name`` of ``obj``, looked up as IPython does: on the object, not the class
    (so a class itself is not shown through its instances' methods), and only if callable."""
    if isinstance(obj, type):
        return None
    try:
        method = getattr(obj, name, None)
    except Exception:
        return None
    return method if callable(method) else None


def has_rich_repr(obj):
    """Whether ``obj`` offers any representation besides its repr."""
    return any(_method(obj, name) for name in ("_repr_mimebundle_", *(m for m, _ in FORMAT_METHODS.values())))


def _show_error(error):
    """The traceback of a failing ``_repr_*_``, without this module's frame, on stderr."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_globals.get("__name__") == __name__:
        tb = tb.tb_next
    sys.stderr.write("".join(traceback.format_exception(type(error), error, tb)))


def _call(obj, method, *args, **kwargs):
    try:
        return method(*args, **kwargs)
    except NotImplementedError:
        return None
    except Exception as error:
        _show_error(error)
        return None


def _checked(mime, value, obj):
    """``(data, metadata)`` for one type, or None (with a warning when the type is wrong)."""
    if value is None:
        return None
    metadata = None
    if isinstance(value, tuple) and len(value) == 2:
        value, metadata = value
    if value is None:
        return None
    accepted = FORMAT_METHODS[mime][1]
    if not isinstance(value, accepted):
        expected = " or ".join(t.__name__ for t in accepted)
        warnings.warn(
            f"{mime} formatter returned invalid type {type(value).__name__} (expected {expected}) "
            f"for object: {_safe_repr(obj)}",
            FormatterWarning,
            stacklevel=2,
        )
        return None
    return _encoded(mime, value), metadata


def _encoded(mime, value):
    if mime in _BASE64_TYPES:
        if isinstance(value, bytes):
            return base64.b64encode(value).decode("ascii")
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return value


def _safe_repr(obj):
    try:
        return repr(obj)
    except Exception as error:
        _show_error(error)
        return f"<{type(obj).__name__} object (its repr raised {type(error).__name__})>"


def _wanted(mime, include, exclude):
    if include is not None and mime not in include:
        return False
    return exclude is None or mime not in exclude


def _bundle(obj, include, exclude):
    """What ``_repr_mimebundle_`` gives: (data, metadata), both dicts, possibly empty."""
    method = _method(obj, "_repr_mimebundle_")
    if method is None:
        return {}, {}
    result = _call(obj, method, include=include, exclude=exclude)
    if result is None:
        return {}, {}
    metadata = {}
    if isinstance(result, tuple) and len(result) == 2:
        result, metadata = result
    if not isinstance(result, dict):
        warnings.warn(
            f"_repr_mimebundle_ returned invalid type {type(result).__name__} (expected dict) "
            f"for object: {_safe_repr(obj)}",
            FormatterWarning,
            stacklevel=2,
        )
        return {}, {}
    data = {}
    for mime, value in result.items():
        if value is None or not _wanted(mime, include, exclude):
            continue
        data[mime] = _encoded(mime, value)
    metadata = {k: v for k, v in dict(metadata or {}).items() if k in data or "/" not in k}
    return data, metadata


def format_display_data(obj, include=None, exclude=None):
    """``(data, metadata)``: every representation ``obj`` offers, ``text/plain`` always."""
    data, metadata = _bundle(obj, include, exclude)
    for mime, (name, _types) in FORMAT_METHODS.items():
        if mime in data or not _wanted(mime, include, exclude):
            continue
        method = _method(obj, name)
        if method is None:
            continue
        checked = _checked(mime, _call(obj, method), obj)
        if checked is None:
            continue
        data[mime], md = checked
        if md is not None:
            metadata[mime] = md
    if "text/plain" not in data and _wanted("text/plain", include, exclude):
        data["text/plain"] = _safe_repr(obj)
    return data, metadata
