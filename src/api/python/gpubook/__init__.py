"""gpubook's own notebook helpers for Python cells, the names TypeScript cells see as globals.

Every Python cell has them without an import (the kernel puts them in ``builtins``), and
``from gpubook import display`` works too:

- ``params``: the notebook link's settings (``?size=test`` gives ``params["size"] == "test"``).
- ``display(*values, display_id=None, clear=False, **options)``: ``IPython.display.display``. An
  object with ``_repr_html_``, ``_repr_png_``, ... (IPython's display protocol) shows as its MIME
  bundle; otherwise as the TypeScript cells' ``display`` shows it: a tensor (an image grid with
  ``labels=``/``columns=``), a list of dicts as a table, a chart; a dict of equal-length lists
  (what ``pd.DataFrame(history)`` takes) as the same table; anything else as its ``repr``.
- ``timeit(fn, repeat=5, warmup=1)``: times ``fn()`` until the GPU has finished its work, prints
  the median and spread, returns the median in seconds.
- ``compare_devices(fn, repeat=3)``: times ``fn(device)`` on the CPU and on each GPU and shows the
  table and chart of speed-ups.
- ``plot_metric(history, metric)``: the training and validation curves of one metric.
- ``auto_chart(enabled=True, names=None)``: the automatic chart of a hand-written loop (Keras
  metrics' ``result()``, torchmetrics' ``compute()``, tqdm's ``set_postfix`` values): ``auto_chart(
  False)`` turns it off, ``auto_chart(names={"train_loss": "loss"})`` renames series.
- ``load_text(name)``: a bundled plain text as one ``str`` (``load_text("sotu")``: State of the
  Union addresses 1993-2021, for character-level models; docs/datasets.md).

They are not PyTorch's: a script exported for real PyTorch replaces them with plain Python.
"""

from IPython import display as _ipython_display
from pyodide.ffi import create_proxy

from torch import _bridge as b

__all__ = ["params", "display", "timeit", "compare_devices", "plot_metric", "auto_chart", "load_text"]

_globals = b.host.globals


def _params():
    value = getattr(_globals, "params", None)
    return dict(value.to_py()) if value is not None else {}


params = _params()


def _columns_as_records(value):
    """A dict of equal-length lists (``pd.DataFrame(history)``'s input) as a list of rows."""
    if not isinstance(value, dict) or not value:
        return None
    columns = list(value.values())
    if not all(isinstance(c, (list, tuple)) for c in columns):
        return None
    if len({len(c) for c in columns}) != 1:
        return None
    names = [str(k) for k in value]
    return [dict(zip(names, row)) for row in zip(*columns)]


def _shown(value):
    """A value as the TypeScript display takes it, or None when it has no such form."""
    records = _columns_as_records(value)
    if records is not None:
        value = records
    try:
        return b.to_js_value(value)
    except TypeError:
        return None


def _display_own(value, **options):
    """A value without rich representations, shown as TypeScript cells show it."""
    shown = _shown(value)
    if shown is None:
        # Anything else shows as its repr, as Jupyter shows it (the cell's text, in call order).
        print(repr(value))
    else:
        b.call(_globals.display, shown, **options)
    return True


_ipython_display.install_fallback(_display_own)


def display(*values, **options):
    return _ipython_display.display(*values, **options)


def _timing(timer, fn, **options):
    """Runs a TypeScript timer on ``fn``, which it awaits (so ``fn`` may read the GPU back)."""
    proxy = create_proxy(fn)
    try:
        return b.wait(b.call(timer, b.host.promising(proxy), **options))
    finally:
        proxy.destroy()


def timeit(fn, repeat=5, warmup=1):
    return _timing(_globals.timeit, fn, repeat=repeat, warmup=warmup)


def compare_devices(fn, repeat=3, warmup=1, title=None):
    rows = _timing(_globals.compareDevices, fn, repeat=repeat, warmup=warmup, title=title)
    return [dict(row.to_py()) for row in rows]


def plot_metric(history, metric):
    b.call(_globals.plotMetric, history, metric)


def auto_chart(enabled=True, names=None):
    """Turns the automatic loop chart on or off, and names its series (for the rest of the session)."""
    if not isinstance(enabled, bool):
        raise TypeError(f"auto_chart: enabled must be True or False, got {enabled!r}")
    if names is not None and not isinstance(names, dict):
        raise TypeError(f"auto_chart: names must be a dict of series name to shown name, got {names!r}")
    options = {"enabled": enabled}
    if names is not None:
        options["names"] = {str(k): str(v) for k, v in names.items()}
    b.call(_globals.autoChart, options)


def load_text(name):
    """A bundled plain text as one string (the TS cells' ``await loadText(name)``)."""
    if not isinstance(name, str):
        raise TypeError(f"load_text: name must be a str such as 'sotu', got {name!r}")
    return b.wait(b.call(_globals.loadText, name))
