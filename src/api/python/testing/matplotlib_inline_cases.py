"""gpubook's inline matplotlib backend (_gpubook_matplotlib/) under Debian's CPython with real
matplotlib, for matplotlib-inline.test.ts. Cells run as the kernel runs them
(src/kernel/python/modules/_gpubook_run_cell.py): the code, then the figure flush given the last
value, then that value's display bundle as ``Out``. Each case's display outputs and ``Out`` go to
stdout as JSON. Run with src/api/python on PYTHONPATH (our IPython and backend, nothing installed).
"""

import ast
import json
import sys

from IPython.core.formatters import format_display_data, has_rich_repr
from IPython.display import install

import _gpubook_matplotlib

assert _gpubook_matplotlib.__file__.startswith(sys.argv[1]), _gpubook_matplotlib.__file__

published = []
install(lambda data, md, display_id, update: published.append({"data": data, "metadata": md}), lambda wait: None)
# The cells see ``published`` to count what was shown mid-cell.
namespace = {"__name__": "__main__", "published": published}


def run_cell(source):
    """One cell as the kernel runs it: its display outputs, and ``Out`` (a bundle) or None."""
    start = len(published)
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    value = None
    try:
        exec(compile(tree, "<cell>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    finally:
        _gpubook_matplotlib.flush_figures(value)
    out = None
    if value is not None:
        out = format_display_data(value)[0] if has_rich_repr(value) else {"text/plain": repr(value)}
    return {"outputs": published[start:], "out": out}


results = {}

# The kernel's start: MPLBACKEND, then a cell that never touches matplotlib.
_gpubook_matplotlib.install()
results["no_matplotlib"] = run_cell("x = 1\nx + 1")
results["no_matplotlib"]["modules"] = sorted(m for m in sys.modules if m.startswith(("matplotlib", "_gpubook_mat")))

results["line"] = run_cell("""
import matplotlib
import matplotlib.pyplot as plt
history = {"loss": [0.9, 0.5, 0.3, 0.2]}
plt.plot(history["loss"])
plt.title("loss");
""")
results["line"]["backend"] = run_cell("matplotlib.get_backend()")["out"]
results["line"]["interactive"] = run_cell("plt.isinteractive()")["out"]
results["empty_cell"] = run_cell("y = 2")

# The same figure saved by matplotlib itself with the inline backend's tight bbox: the size the
# inline PNG must have.
results["tight_reference"] = run_cell("""
import io
import struct
ref = plt.figure()
plt.plot(history["loss"])
plt.title("loss")
buf = io.BytesIO()
ref.savefig(buf, format="png", bbox_inches="tight")
plt.close(ref)
struct.unpack(">II", buf.getvalue()[16:24])
""")

_gpubook_matplotlib.run_line_magic("config", "InlineBackend.print_figure_kwargs = {'bbox_inches': None}")

published_before = len(published)
results["show_mid_cell"] = run_cell("""
plt.plot([1, 2, 3])
plt.show()
shown_before_end = len(published)
plt.figure(figsize=(3, 2), dpi=50)
plt.plot([3, 2, 1])
""")
results["show_mid_cell"]["shown_by_show"] = namespace["shown_before_end"] - published_before
results["grid"] = run_cell("fig, axes = plt.subplots(2, 3)\nfor i, ax in enumerate(axes.flat): ax.plot([0, i])")
results["closed"] = run_cell("""
f1 = plt.figure(); plt.plot([1])
f2 = plt.figure(); plt.plot([2])
plt.close(f1)
plt.close(f2)
f3 = plt.figure(); plt.plot([3]); plt.close("all")
""")
results["imshow"] = run_cell("""
import numpy as np
img = np.array([[0.0, 1 / 3], [2 / 3, 1.0]])
fig = plt.figure(figsize=(2, 2), dpi=100)
ax = fig.add_axes([0, 0, 1, 1])
ax.imshow(img, cmap="gray", vmin=0, vmax=1, interpolation="nearest")
ax.set_axis_off()
""")
results["savefig"] = run_cell("""
fig, ax = plt.subplots(figsize=(4, 3))
ax.plot(np.random.default_rng(0).normal(size=50))
saved = io.BytesIO()
fig.savefig(saved, format="png")
struct.unpack(">II", saved.getvalue()[16:24]), saved.getvalue()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
""")
results["figure_as_out"] = run_cell(
    "fig, ax = plt.subplots()\nax.plot([1, 2])\nother = plt.figure(); plt.plot([0])\nfig"
)
results["empty_figure"] = run_cell("plt.figure()")
results["empty_figure_shown"] = run_cell("_ = plt.figure()")
results["fig_show"] = run_cell(
    "import warnings\nwarnings.simplefilter('error')\nfig = plt.figure(); plt.plot([1]); fig.show()"
)
results["ioff"] = run_cell("plt.ioff()\nplt.figure(); plt.plot([1])")
results["ioff_next"] = run_cell("z = 3")
results["ioff_show"] = run_cell("plt.show()\n_ = plt.ion()")
results["raising"] = {}
try:
    run_cell("plt.plot([1, 2])\n1 / 0")
except ZeroDivisionError:
    results["raising"] = {"outputs": published[-1:]}

_gpubook_matplotlib.run_line_magic("config", "InlineBackend.figure_format = 'retina'")
results["retina"] = run_cell("plt.figure(figsize=(2, 1), dpi=100); plt.plot([1, 2])")
_gpubook_matplotlib.run_line_magic("config", "InlineBackend.figure_formats = ['svg']")
results["svg"] = run_cell("plt.plot([1, 2])")
_gpubook_matplotlib.run_line_magic("config", "InlineBackend.figure_format = 'png'")

# %matplotlib inline brings the inline backend back after a cell switched away from it.
run_cell("matplotlib.use('agg')")
results["agg_backend"] = run_cell("plt.plot([1]); matplotlib.get_backend()")
_gpubook_matplotlib.run_line_magic("matplotlib", "inline")
results["inline_again"] = run_cell("plt.plot([1]); matplotlib.get_backend()")

sys.stdout.write(json.dumps(results))
