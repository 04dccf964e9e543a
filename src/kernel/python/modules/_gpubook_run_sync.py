"""``pyodide.ffi.run_sync`` that an interrupt stops at a safe point.

While a cell waits in ``run_sync`` (a loop reading losses back from the GPU spends most of its
time there), Pyodide resumes it through its own asyncio internals; an interrupt seen by the
interpreter there raised KeyboardInterrupt inside Pyodide's event loop instead of in the cell, and
the cell never ended (the worker was then replaced, losing every variable). So while it waits,
Pyodide watches a buffer nobody sets, and the cell's own buffer is read back right after the
wait, in the caller's frame: KeyboardInterrupt is raised there, and the cell ends cleanly.

One of the kernel's own modules (src/kernel/python/modules/, defined by pyodide-loader.ts).
"""

import js
import pyodide.ffi
import pyodide_js

__tracebackhide__ = True

_wait = pyodide.ffi.run_sync
_buffer = None
# Watched by the interpreter while a cell waits; never set.
_quiet = js.Int32Array.new(js.SharedArrayBuffer.new(4))


def run_sync(awaitable):
    """pyodide.ffi.run_sync; an interrupt while it waits raises KeyboardInterrupt here."""
    pyodide_js.setInterruptBuffer(_quiet)
    try:
        result = _wait(awaitable)
    finally:
        pyodide_js.setInterruptBuffer(_buffer)
    if _buffer[0] != 0:
        _buffer[0] = 0
        raise KeyboardInterrupt
    return result


def install(buffer):
    global _buffer
    _buffer = buffer
    pyodide.ffi.run_sync = run_sync
