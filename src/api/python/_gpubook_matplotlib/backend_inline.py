"""gpubook's inline matplotlib backend (``module://_gpubook_matplotlib.backend_inline``), after
matplotlib-inline's ``backend_inline``: Agg draws, figures are shown as images through
``IPython.display.display``.

- In interactive mode (which importing this backend turns on, as IPython's ``%matplotlib inline``
  does), a new figure marks the cell as having figures; at the end of the cell the kernel calls
  ``flush_figures``, which shows every open figure and closes them all, so the next cell starts
  with none and no figure is shown twice.
- ``plt.show()`` does the same at once (mid-cell).
- A figure is displayed as IPython's Figure formatter displays it: ``image/png`` (or the formats
  ``%config InlineBackend.figure_formats`` chose) of the figure drawn with ``bbox_inches="tight"``
  at its own dpi (twice that for ``retina``, with half the size in the metadata), plus
  ``text/plain``, its repr (``<Figure size 640x480 with 1 Axes>``). A figure with no axes and no
  lines has no image, only that text. Here that is ``Figure._repr_mimebundle_``, since our
  formatter has no per-type registry, so ``display(fig)`` and a cell ending in ``fig`` show it too.
"""

import base64
import io
import struct

import matplotlib
from IPython.display import display
from matplotlib import colors
from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import _gpubook_matplotlib as _settings

__all__ = [
    "FigureCanvas",
    "FigureManager",
    "new_figure_manager",
    "new_figure_manager_given_figure",
    "show",
    "flush_figures",
    "print_figure",
]

# Whether a figure was made since the last flush (matplotlib-inline's ``show._draw_called``).
_draw_called = False


class FigureCanvasInline(FigureCanvasAgg):
    """Agg, drawn only when the figure is shown or saved. matplotlib (with no IPython shell to
    tell it otherwise) would redraw a figure of an interactive session after every pyplot call."""

    def draw_idle(self, *args, **kwargs):
        pass


class FigureManagerInline(FigureManagerBase):
    def show(self):
        """``fig.show()``: the figure is shown at the end of the cell (matplotlib's base manager
        would warn that this is not a GUI backend)."""


FigureCanvas = FigureCanvasInline
FigureManager = FigureManagerInline


def new_figure_manager(num, *args, FigureClass=Figure, **kwargs):
    return new_figure_manager_given_figure(num, FigureClass(*args, **kwargs))


def new_figure_manager_given_figure(num, figure):
    global _draw_called
    manager = FigureManagerInline(FigureCanvasInline(figure), num)
    # After plt.ioff() figures wait for an explicit plt.show(), as in Jupyter.
    if matplotlib.is_interactive():
        _draw_called = True
    return manager


def show(close=True, block=None):
    """Displays every open figure, then closes them all (``close=False`` keeps them open)."""
    _show_all(close, skip=None)


def flush_figures(shown=None):
    """End of a cell: shows the open figures if any was made in this cell (or since the last
    flush). ``shown`` (the cell's last value) is not displayed again, but is closed too."""
    global _draw_called
    if not _draw_called:
        return
    try:
        _show_all(True, skip=shown)
    finally:
        _draw_called = False


def _show_all(close, skip):
    try:
        for manager in Gcf.get_all_fig_managers():
            figure = manager.canvas.figure
            if figure is not skip:
                display(figure, metadata=_figure_metadata(figure))
    finally:
        if close:
            Gcf.destroy_all()  # plt.close("all")


def _is_transparent(color):
    return colors.to_rgba(color)[3] < 0.5


def _figure_metadata(figure):
    """matplotlib-inline's ``needs_background`` hint: a transparent figure whose tick labels are
    all light (or all dark) needs a dark (or light) page behind it to be read."""
    if not _is_transparent(figure.get_facecolor()):
        return {}
    labels = [
        label.get_color()
        for axes in figure.axes
        for axis in (axes.xaxis, axes.yaxis)
        for label in axis.get_ticklabels()
    ]
    if not labels:
        return {}
    light = {bool(rgba[:3].dot((0.299, 0.587, 0.114)) > 0.5) for rgba in colors.to_rgba_array(labels)}
    if len(light) != 1:
        return {}
    return {"needs_background": "dark" if light.pop() else "light"}


def print_figure(figure, fmt="png", bbox_inches="tight", **kwargs):
    """The figure as ``fmt`` bytes (IPython's ``pylabtools.print_figure``); None for a figure
    with nothing drawn in it. ``retina`` is PNG at twice the figure's dpi."""
    if not figure.axes and not figure.lines:
        return None
    dpi = figure.dpi
    if fmt == "retina":
        dpi, fmt = dpi * 2, "png"
    options = {
        "format": fmt,
        "facecolor": figure.get_facecolor(),
        "edgecolor": figure.get_edgecolor(),
        "dpi": dpi,
        "bbox_inches": bbox_inches,
        **kwargs,
    }
    buffer = io.BytesIO()
    figure.canvas.print_figure(buffer, **options)
    return buffer.getvalue()


def png_size(data):
    """(width, height) from a PNG's IHDR chunk."""
    return struct.unpack(">II", data[16:24])


def _b64(data):
    return base64.b64encode(data).decode("ascii")


def _mimebundle(figure, include=None, exclude=None):
    """The figure in each of the chosen formats, as IPython's Figure formatters give it."""
    formats = _settings.figure_formats
    kwargs = dict(_settings.print_figure_kwargs)
    data, metadata = {}, {}
    # Retina replaces plain PNG, as its formatter is registered after PNG's in IPython.
    if "png" in formats and not {"retina", "png2x"} & formats:
        png = print_figure(figure, "png", **kwargs)
        if png is not None:
            data["image/png"] = _b64(png)
    if "retina" in formats or "png2x" in formats:
        png = print_figure(figure, "retina", **kwargs)
        if png is not None:
            width, height = png_size(png)
            data["image/png"] = _b64(png)
            metadata["image/png"] = {"width": width // 2, "height": height // 2}
    if "jpg" in formats or "jpeg" in formats:
        jpeg = print_figure(figure, "jpg", **kwargs)
        if jpeg is not None:
            data["image/jpeg"] = _b64(jpeg)
    if "svg" in formats:
        svg = print_figure(figure, "svg", **kwargs)
        if svg is not None:
            data["image/svg+xml"] = svg.decode("utf-8")
    if "pdf" in formats:
        pdf = print_figure(figure, "pdf", **kwargs)
        if pdf is not None:
            data["application/pdf"] = _b64(pdf)
    if include is not None:
        data = {k: v for k, v in data.items() if k in include}
    if exclude is not None:
        data = {k: v for k, v in data.items() if k not in exclude}
    return data, {k: v for k, v in metadata.items() if k in data}


Figure._repr_mimebundle_ = _mimebundle
# As IPython's %matplotlib inline: interactive mode, so each new figure is shown at the cell's end.
matplotlib.interactive(True)
