/**
 * Python source of `_gpubook_streams`: `sys.stdout` and `sys.stderr` as text streams that hand
 * every write straight to the running cell's outputs. Pyodide's own stdout is a buffered byte
 * stream, which would print `print("a", end="")` late and let stderr overtake stdout; unbuffered
 * text keeps Python's output in call order with what the TypeScript globals (display, charts)
 * write into the same cell.
 */
export const STREAMS_MODULE = 'streams';

export const STREAMS_SOURCE = `
import io
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


def install(write):
    sys.stdout = sys.__stdout__ = CellStream("stdout", write)
    sys.stderr = sys.__stderr__ = CellStream("stderr", write)
`;
