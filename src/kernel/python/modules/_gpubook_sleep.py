"""``time.sleep`` in slices. Pyodide's own ``time.sleep`` blocks the worker in one piece and never
looks at the interrupt buffer, so ``time.sleep(60)`` could only be stopped by replacing the worker
(losing every variable). Between slices the interpreter runs bytecode, which checks the buffer: an
interrupt raises KeyboardInterrupt within a slice or so.

One of the kernel's own modules (src/kernel/python/modules/, defined by pyodide-loader.ts).
"""

import time

__tracebackhide__ = True

_SLICE = 0.05
_blocking_sleep = time.sleep


def sleep(seconds):
    """time.sleep that an interrupt can stop."""
    if not isinstance(seconds, (int, float)) or seconds < 0:
        return _blocking_sleep(seconds)  # CPython's own errors for bad arguments
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return None
        _blocking_sleep(min(left, _SLICE))


def install():
    time.sleep = sleep
