"""matplotlib in Python cells as matplotlib-inline makes it in Jupyter: figures become PNG images in
the cell's outputs, through IPython's display protocol (our ``IPython`` package).

- ``install()`` (the kernel, at start) sets ``MPLBACKEND`` to our Agg backend
  (``backend_inline`` here), so ``import matplotlib.pyplot`` picks it over Pyodide's own.
- ``flush_figures(shown)`` (the kernel, after each cell, as IPython's post-execute hook): every
  open figure is shown and closed. It costs nothing when the cell never made a figure: the backend
  module is only imported by matplotlib when a figure needs it.
- ``run_line_magic(name, line)``: ``%matplotlib …`` and ``%config InlineBackend.…`` lines, which the
  kernel turns into this call (src/kernel/python/shell-lines.ts).

The settings live here, not in the backend, so ``%config`` works before matplotlib is imported.
No matplotlib or Pyodide import at module level: it runs under plain CPython too (the tests).
"""

import ast
import os
import sys

__all__ = ["BACKEND", "install", "flush_figures", "run_line_magic", "figure_formats", "print_figure_kwargs"]

BACKEND = "module://_gpubook_matplotlib.backend_inline"
_BACKEND_MODULE = __name__ + ".backend_inline"

# IPython's InlineBackend settings and their defaults (matplotlib-inline's config.py).
SUPPORTED_FORMATS = ("png", "png2x", "retina", "jpg", "jpeg", "svg", "pdf")
figure_formats = {"png"}
print_figure_kwargs = {"bbox_inches": "tight"}

# Backends that need a GUI or a widget channel; the notebook draws every figure inline instead.
_NOTE = (
    "[gpubook] `%matplotlib {}`: figures are shown inline (as images at the end of the cell or on "
    "plt.show()); interactive matplotlib backends do not run in gpubook's browser Python.\n"
)


def install():
    """Makes our inline backend matplotlib's default (read when matplotlib is imported)."""
    os.environ["MPLBACKEND"] = BACKEND


def flush_figures(shown=None):
    """Shows and closes every open figure, unless no figure was ever made (matplotlib-inline's
    ``flush_figures``). ``shown`` is the cell's last value: a figure there is the cell's ``Out``
    and is not shown a second time."""
    backend = sys.modules.get(_BACKEND_MODULE)
    if backend is not None:
        backend.flush_figures(shown)


def _matplotlib_magic(args):
    words = args.split()
    gui = next((w for w in words if not w.startswith("-")), "inline")
    if "-l" in words or "--list" in words:
        sys.stdout.write("Available matplotlib backends: ['inline']\n")
        return
    if gui != "inline":
        sys.stdout.write(_NOTE.format(args.strip()))
    # As IPython's %matplotlib: the inline backend again (if a cell switched away from it) and
    # interactive mode. Only when matplotlib is loaded already: the magic alone imports nothing.
    matplotlib = sys.modules.get("matplotlib")
    if matplotlib is None:
        return
    if matplotlib.get_backend() != BACKEND:
        matplotlib.use(BACKEND)
    matplotlib.interactive(True)


def set_figure_formats(formats):
    """``%config InlineBackend.figure_formats = …`` (IPython's ``select_figure_formats`` checks)."""
    if isinstance(formats, str):
        formats = {formats}
    formats = set(formats)
    bad = formats.difference(SUPPORTED_FORMATS)
    if bad:
        good = ",".join(repr(f) for f in SUPPORTED_FORMATS)
        raise ValueError(f"supported formats are: {good} not {','.join(repr(f) for f in sorted(bad))}")
    figure_formats.clear()
    figure_formats.update(formats)


def _config_magic(line):
    name, sep, value = line.partition("=")
    name = name.strip()
    if not sep:
        raise ValueError(f"%config {line}: gpubook sets InlineBackend options with `name = value`")
    try:
        value = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise ValueError(f"%config {line}: the value must be a Python literal") from None
    if name in ("InlineBackend.figure_format", "InlineBackend.figure_formats"):
        set_figure_formats(value)
    elif name == "InlineBackend.print_figure_kwargs":
        if not isinstance(value, dict):
            raise TypeError(f"InlineBackend.print_figure_kwargs must be a dict, not {type(value).__name__}")
        print_figure_kwargs.clear()
        print_figure_kwargs.update(value)
    else:
        raise ValueError(
            f"%config {name}: gpubook's inline backend has figure_format, figure_formats and print_figure_kwargs only"
        )


def run_line_magic(name, line):
    """``%matplotlib <line>`` or ``%config <line>``, as IPython's ``run_line_magic``."""
    if name == "matplotlib":
        _matplotlib_magic(line)
    elif name == "config":
        _config_magic(line)
    else:
        raise ValueError(f"%{name}: not a magic of gpubook's inline matplotlib")
