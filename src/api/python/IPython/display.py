"""``IPython.display`` as gpubook's browser Python has it: ``display``, ``update_display``,
``clear_output``, ``DisplayHandle`` and the display objects ``HTML``, ``Markdown``, ``SVG``,
``Image``, ``JSON``, ``Latex``, ``Pretty`` and ``Javascript``.

An object is shown as the MIME bundle IPython's formatter makes of it (``IPython.core.formatters``):
every representation it offers plus ``text/plain``. The page renders the richest one it can,
sanitized (no script in HTML or SVG ever runs). ``Javascript`` exists so notebooks that use it
import, but it never runs: it shows as its text.

The kernel installs where bundles go (``install``); gpubook installs how its own objects (tensors,
tables, charts) show (``install_fallback``). Without either (plain CPython), ``display`` prints
``text/plain`` as a terminal IPython does. Pure Python with no Pyodide import.
"""

import base64
import json
import os
import sys
import uuid

from IPython.core.formatters import format_display_data, has_rich_repr

__all__ = [
    "display",
    "update_display",
    "clear_output",
    "publish_display_data",
    "DisplayHandle",
    "DisplayObject",
    "HTML",
    "Markdown",
    "SVG",
    "Image",
    "JSON",
    "Latex",
    "Math",
    "Pretty",
    "Javascript",
]

# publish(data, metadata, display_id, update) and clear(wait): set by the kernel.
_publish = None
_clear = None
# fallback(obj, **options) -> bool: shows a value without rich representations gpubook's way.
_fallback = None


def install(publish, clear):
    """Called by the kernel (pyodide-loader.ts): where display bundles and clears go."""
    global _publish, _clear
    _publish = publish
    _clear = clear


def install_fallback(fallback):
    """Called by gpubook: how a value with no ``_repr_*_`` shows (tensors, tables, charts, repr)."""
    global _fallback
    _fallback = fallback


def publish_display_data(data, metadata=None, *, display_id=None, update=False, transient=None):
    """Sends one MIME bundle to the running cell (``update``: replaces the output ``display_id``)."""
    if display_id is None and isinstance(transient, dict):
        display_id = transient.get("display_id")
    if _publish is None:
        text = data.get("text/plain")
        if text is not None:
            sys.stdout.write(str(text) + "\n")
        return
    _publish(dict(data), dict(metadata or {}), display_id, bool(update))


def _new_id():
    return uuid.uuid4().hex


def display(
    *objs,
    include=None,
    exclude=None,
    metadata=None,
    transient=None,
    display_id=None,
    raw=False,
    clear=False,
    update=False,
    **options,
):
    """Shows each object as an output of the running cell. ``display_id=True`` (or a string)
    returns a ``DisplayHandle`` whose ``update`` redraws that output in place; ``clear=True`` clears
    the cell's outputs first (when the new ones arrive). Other keywords (``labels=``, ``columns=``)
    go to gpubook's own display of tensors as image grids."""
    if clear:
        clear_output(wait=True)
    if display_id is True:
        display_id = _new_id()
    if transient and display_id is None:
        display_id = transient.get("display_id")
    for obj in objs:
        if raw:
            publish_display_data(obj, metadata, display_id=display_id, update=update)
            continue
        own = getattr(obj, "_ipython_display_", None)
        if callable(own) and not isinstance(obj, type):
            own()
            continue
        if display_id is None and _fallback is not None and (options or not has_rich_repr(obj)):
            if _fallback(obj, **options):
                continue
        data, md = format_display_data(obj, include=include, exclude=exclude)
        if not data:
            continue
        if metadata:
            md = {**md, **metadata}
        publish_display_data(data, md, display_id=display_id, update=update)
    if display_id is not None:
        return DisplayHandle(display_id)
    return None


def update_display(obj, *, display_id, **kwargs):
    """Redraws the output shown with ``display_id`` as ``obj``."""
    kwargs["update"] = True
    display(obj, display_id=display_id, **kwargs)


def clear_output(wait=False):
    """Clears the running cell's outputs; ``wait=True`` waits until the next output arrives
    (a loop redrawing itself then does not flicker)."""
    if _clear is not None:
        _clear(bool(wait))


class DisplayHandle:
    """A handle on one display output: ``update(obj)`` redraws it, ``display(obj)`` shows another."""

    def __init__(self, display_id=None):
        self.display_id = _new_id() if display_id is None else display_id

    def __repr__(self):
        return f"<{type(self).__name__} display_id={self.display_id}>"

    def display(self, obj, **kwargs):
        display(obj, display_id=self.display_id, **kwargs)

    def update(self, obj, **kwargs):
        update_display(obj, display_id=self.display_id, **kwargs)


class DisplayObject:
    """Data to show as one MIME type; ``filename=`` reads it from a file (Pyodide's in-memory file
    system: files the notebook's cells wrote), ``url=`` refers to it."""

    _read_flags = "r"

    def __init__(self, data=None, url=None, filename=None, metadata=None):
        if isinstance(data, str) and data.startswith(("http://", "https://")) and url is None:
            url, data = data, None
        elif isinstance(data, str) and filename is None and _is_file(data):
            filename, data = data, None
        self.data = data
        self.url = url
        self.filename = filename
        self.metadata = dict(metadata or {})
        if filename is not None and data is None:
            with open(filename, self._read_flags) as f:
                self.data = f.read()

    def __repr__(self):
        return f"<IPython.core.display.{type(self).__name__} object>"


def _is_file(text):
    try:
        return len(text) < 4096 and "\n" not in text and os.path.isfile(text)
    except (OSError, ValueError):
        return False


def _text(data):
    return data.decode("utf-8") if isinstance(data, bytes) else data


class HTML(DisplayObject):
    def _repr_html_(self):
        if self.data is None:
            return f'<a href="{_attr(self.url)}">{_attr(self.url)}</a>' if self.url else None
        return _with(self, _text(self.data))

    def __html__(self):
        return self._repr_html_()


class Markdown(DisplayObject):
    def _repr_markdown_(self):
        return _with(self, _text(self.data))


class Latex(DisplayObject):
    def _repr_latex_(self):
        return _with(self, _text(self.data))


class Math(DisplayObject):
    def _repr_latex_(self):
        text = _text(self.data).strip("$")
        return _with(self, f"$\\displaystyle {text}$")


class SVG(DisplayObject):
    def _repr_svg_(self):
        text = _text(self.data)
        if text is None:
            return None
        # Only the <svg> element, as IPython keeps it (no XML prolog or doctype).
        start = text.find("<svg")
        return _with(self, text[start:] if start >= 0 else text)


class Pretty(DisplayObject):
    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": _text(self.data) or ""}


class JSON(DisplayObject):
    """JSON data (a dict or a list, or its text) shown as a tree."""

    def __init__(self, data=None, url=None, filename=None, expanded=False, metadata=None, root="root", **kwargs):
        super().__init__(data=data, url=url, filename=filename, metadata=metadata)
        if isinstance(self.data, (str, bytes)):
            self.data = json.loads(self.data)
        self.metadata = {"expanded": expanded, "root": root, **self.metadata, **kwargs}

    def _repr_json_(self):
        return self.data, self.metadata


class Javascript(DisplayObject):
    """Exists so notebooks that use it import; gpubook never runs JavaScript from a notebook, so it
    shows as text."""

    def __init__(self, data=None, url=None, filename=None, lib=None, css=None):
        super().__init__(data=data, url=url, filename=filename)

    def __repr__(self):
        return "<IPython.core.display.Javascript object: not run (gpubook runs no JavaScript from notebooks)>"


_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8"


class Image(DisplayObject):
    """A PNG or JPEG image from bytes (``data=``), a file (``filename=``) or a URL (``url=``, not
    fetched: shown as an ``<img>`` that points at it)."""

    _read_flags = "rb"

    def __init__(
        self,
        data=None,
        url=None,
        filename=None,
        format=None,
        embed=None,
        width=None,
        height=None,
        retina=False,
        unconfined=False,
        metadata=None,
        alt=None,
    ):
        if isinstance(data, str) and not data.startswith(("http://", "https://")) and not _is_file(data):
            data = base64.b64decode(data)
        super().__init__(data=data, url=url, filename=filename, metadata=metadata)
        self.embed = embed if embed is not None else self.data is not None
        self.format = _image_format(format, self.filename or self.url, self.data)
        self.width = width
        self.height = height
        self.retina = retina
        self.unconfined = unconfined
        self.alt = alt

    def _metadata(self):
        md = dict(self.metadata)
        for key in ("width", "height", "alt"):
            if getattr(self, key) is not None:
                md[key] = getattr(self, key)
        if self.unconfined:
            md["unconfined"] = True
        return md

    def _image(self, fmt):
        if not self.embed or self.data is None or self.format != fmt:
            return None
        md = self._metadata()
        return (self.data, md) if md else self.data

    def _repr_png_(self):
        return self._image("png")

    def _repr_jpeg_(self):
        return self._image("jpeg")

    def _repr_html_(self):
        if self.embed or self.url is None:
            return None
        size = "".join(f' {k}="{_attr(v)}"' for k, v in (("width", self.width), ("height", self.height)) if v)
        alt = f' alt="{_attr(self.alt)}"' if self.alt else ""
        return f'<img src="{_attr(self.url)}"{size}{alt}/>'


def _image_format(given, name, data):
    if given:
        fmt = given.lower()
        return "jpeg" if fmt == "jpg" else fmt
    if isinstance(data, bytes):
        if data.startswith(_PNG):
            return "png"
        if data.startswith(_JPEG):
            return "jpeg"
    if name:
        ext = name.rsplit(".", 1)[-1].lower()
        if ext in ("jpg", "jpeg"):
            return "jpeg"
    return "png"


def _with(obj, data):
    return (data, obj.metadata) if obj.metadata else data


def _attr(value):
    return str(value).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
