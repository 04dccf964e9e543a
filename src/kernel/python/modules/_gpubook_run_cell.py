"""Runs one cell's source in the notebook's namespace (``__main__``) with Pyodide's async evaluator,
so top-level ``await`` works and code may block on a JavaScript promise with
``pyodide.ffi.run_sync`` (JSPI). The result is plain data for the kernel: the last expression's
repr (Jupyter's ``Out[n]``), a JavaScript object to display as TypeScript cells display it, or the
error with a traceback that shows only the user's frames.

One of the kernel's own modules (src/kernel/python/modules/, defined by pyodide-loader.ts).
"""

import asyncio
import builtins
import json
import os
import sys
import traceback
import types

import _pyodide
import pyodide
from pyodide.code import eval_code_async
from pyodide.ffi import JsProxy

import __main__
from _gpubook_import_guard import package_dirs

__tracebackhide__ = True

# Frames of the machinery between the kernel and the user's code: Pyodide's evaluator, the
# import system and our own kernel modules.
_HIDDEN_PREFIXES = (
    os.path.dirname(_pyodide.__file__) + "/",
    os.path.dirname(pyodide.__file__) + "/",
    "<frozen importlib._bootstrap",
    "<gpubook ",
)


def _hidden_prefixes():
    # Our packages (torch, torchvision, ...: everything installed beside the standard library)
    # are ours too: an error they raise points at the user's line that called them, as the
    # engine's errors do in TypeScript cells. The standard library's frames stay, as in CPython.
    return _HIDDEN_PREFIXES + tuple(entry.rstrip("/") + "/" for entry in package_dirs())


def _hidden(frame, prefixes):
    if frame.f_code.co_filename.startswith(prefixes):
        return True
    # Any other module can hide its frames the way IPython and pytest let it.
    return bool(frame.f_globals.get("__tracebackhide__"))


def _visible(tb, prefixes):
    kept = []
    while tb is not None:
        if not _hidden(tb.tb_frame, prefixes):
            kept.append(tb)
        tb = tb.tb_next
    result = None
    for entry in reversed(kept):
        result = types.TracebackType(result, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return result


def _strip(error, seen, prefixes):
    if error is None or id(error) in seen:
        return
    seen.add(id(error))
    error.__traceback__ = _visible(error.__traceback__, prefixes)
    _strip(error.__cause__, seen, prefixes)
    _strip(error.__context__, seen, prefixes)
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            _strip(inner, seen, prefixes)


def _error(error):
    _strip(error, set(), _hidden_prefixes())
    text = "".join(traceback.format_exception(error)).rstrip("\n")
    return {
        "status": "interrupted" if isinstance(error, KeyboardInterrupt) else "error",
        "ename": type(error).__name__,
        "evalue": str(error),
        "traceback": text.split("\n"),
    }


def bundle_json(data, metadata, display_id=None, update=False):
    """One display bundle as the JSON text the kernel reads (python-kernel.ts's
    PythonDisplayMessage); ``text/plain`` is always there, as in every MIME bundle we keep."""
    data = dict(data)
    data.setdefault("text/plain", "")
    message = {"data": data, "metadata": metadata or {}, "displayId": display_id, "update": update}
    return json.dumps(message, default=repr)


def install_display(publish, clear):
    """IPython's display protocol reaches the running cell: ``publish`` takes a bundle's JSON text,
    ``clear`` the ``wait`` flag of ``clear_output``. Called by pyodide-loader.ts once our packages
    (``IPython``) are importable."""
    from IPython import display as ipython_display

    import _gpubook_matplotlib

    # matplotlib's inline backend, picked when a cell imports matplotlib (figures as images).
    _gpubook_matplotlib.install()
    ipython_display.install(
        lambda data, metadata, display_id, update: publish(bundle_json(data, metadata, display_id, update)),
        lambda wait: clear(wait),
    )


def _result(value):
    """The last expression's value as the kernel shows it: its display bundle when it offers more
    than its repr (``_repr_html_``, ``_repr_png_``, ...: IPython's formatter), else its repr."""
    from IPython.core.formatters import format_display_data, has_rich_repr

    own = getattr(value, "_ipython_display_", None)
    if callable(own) and not isinstance(value, type):
        own()
        return {"status": "ok"}
    if has_rich_repr(value):
        data, metadata = format_display_data(value)
        return {"status": "ok", "bundle": bundle_json(data, metadata)}
    return {"status": "ok", "repr": repr(value)}


# The task running the current cell, and whether the user interrupted it while it waited.
_task = None
_interrupted = False


def interrupt():
    """The page asked to interrupt while no Python bytecode runs. A cell waiting on an await
    (asyncio.sleep, a future) would only see the interrupt buffer when the await ends, so its
    task is cancelled and the cell ends with KeyboardInterrupt. A cell blocked in run_sync is
    in the middle of a step, not waiting on the loop: the buffer stops it when it resumes.
    Returns whether the task was cancelled."""
    global _interrupted
    if _task is None or _task.done() or getattr(_task, "_fut_waiter", None) is None:
        return False
    _interrupted = True
    _task.cancel()
    return True


def _keyboard_interrupt(cancelled):
    error = KeyboardInterrupt()
    error.__traceback__ = cancelled.__traceback__
    return error


# The cell's last value, kept for ``after_cell``: a figure that is ``Out`` is not shown again.
_last_value = None


async def _evaluate(source, filename):
    """The cell's last value (None when it raised), also kept for ``after_cell``."""
    global _last_value
    _last_value = None
    _last_value = await eval_code_async(
        source,
        __main__.__dict__,
        return_mode="last_expr",
        quiet_trailing_semicolon=True,
        filename=filename,
        dont_inherit=True,
    )
    return _last_value


def after_cell():
    """After the cell's ``Out`` or error is shown, even when it raised: its open matplotlib figures
    become images (matplotlib-inline's post-execute hook, which Jupyter runs after the display
    hook and the traceback)."""
    global _last_value
    value, _last_value = _last_value, None
    # Nothing to do (not even an import) for a cell that never made a figure.
    inline = sys.modules.get("_gpubook_matplotlib")
    if inline is not None:
        inline.flush_figures(value)


async def run_cell(source, filename):
    """Runs one cell in the notebook's namespace (``__main__``); python-kernel.ts calls it from
    JavaScript and awaits the coroutine, which Pyodide runs as an asyncio task on its event loop,
    where ``run_sync`` can block (JSPI)."""
    global _task, _interrupted
    _task = asyncio.current_task()
    _interrupted = False
    try:
        value = await _evaluate(source, filename)
        if value is None:
            return {"status": "ok"}
        builtins._ = value
        if isinstance(value, JsProxy):
            return {"status": "ok", "js": value}
        return _result(value)
    except asyncio.CancelledError as cancelled:
        if not _interrupted:
            return _error(cancelled)
        return _error(_keyboard_interrupt(cancelled))
    except BaseException as error:
        return _error(error)
    finally:
        # Our cancel is withdrawn, so the task ends with the result above even when the cell
        # stopped another way first (KeyboardInterrupt from the buffer while in run_sync).
        if _interrupted and _task is not None and _task.cancelling():
            _task.uncancel()
        _task = None
