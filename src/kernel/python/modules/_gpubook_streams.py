"""``sys.stdout`` and ``sys.stderr`` as text streams that hand every write straight to the running
cell's outputs. Pyodide's own stdout is a buffered byte stream, which would print
``print("a", end="")`` late and let stderr overtake stdout; unbuffered text keeps Python's output
in call order with what the TypeScript globals (display, charts) write into the same cell.
``print`` of one dict with a numeric "epoch" also hands its numbers to the automatic loop chart
(as the TypeScript ``print`` does with an object).

One of the kernel's own modules (src/kernel/python/modules/, defined by pyodide-loader.ts).
"""

import builtins
import functools
import io
import json
import sys

__tracebackhide__ = True


class CellStream(io.TextIOBase):
    """A write-only text stream whose writes go to the running cell's output area."""

    def __init__(self, name, write):
        super().__init__()
        self._stream_name = name
        self._write = write

    @property
    def name(self):
        return "<" + self._stream_name + ">"

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "strict"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            self._write(self._stream_name, text)
        return len(text)

    def flush(self):
        pass


def _numbers(log):
    """The plain numbers of a dict printed as an epoch log (bools are not numbers here)."""
    return {
        k: float(v)
        for k, v in log.items()
        if isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
    }


def _printing(builtin_print, epoch_log):
    @functools.wraps(builtin_print)
    def print(*args, **kwargs):
        builtin_print(*args, **kwargs)
        to_cell = kwargs.get("file") in (None, sys.stdout)
        if to_cell and len(args) == 1 and type(args[0]) is dict and "epoch" in args[0]:
            numbers = _numbers(args[0])
            if "epoch" in numbers and len(numbers) > 1:
                epoch_log(json.dumps(numbers))

    return print


def install(write, epoch_log):
    sys.stdout = sys.__stdout__ = CellStream("stdout", write)
    sys.stderr = sys.__stderr__ = CellStream("stderr", write)
    builtins.print = _printing(builtins.print, epoch_log)
