"""A notebook's code cells as Python modules (``ast``), for the exports of ``export_ddp``.

IPython's ``!shell`` and ``%magic`` lines are not Python: they are taken out before ``ast.parse``
and recorded, and a cell magic whose body is not Python drops its cell. Only a cell that does not
parse as it is loses such lines, so a ``%`` continuing an expression in valid Python stays.
"""

import ast

__all__ = ["Cell", "parse_cells", "note", "is_note", "commented", "render"]

# Cell magics whose body is Python: the body is kept, the magic line dropped.
_PYTHON_BODY_MAGICS = {"time", "timeit", "capture", "prun", "debug"}

# A statement ``"<MARK>reason"`` put before a node becomes the comment ``# gpubook: reason`` in the
# exported text (``ast`` has no comments; see ``render``).
MARK = "\x00gpubook\x00"

_FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


class Cell:
    """One code cell: its number (1-based among the notebook's cells), module or why it has none."""

    def __init__(self, number, source, tree, dropped, error):
        self.number = number
        self.source = source
        self.tree = tree
        self.dropped = dropped  # [(line number, text)] of !/% lines taken out
        self.error = error  # a SyntaxError's message when the cell is not Python


def _parse(text, number):
    return compile(text, f"<cell {number}>", "exec", flags=_FLAGS, dont_inherit=True)


def _without_magics(source):
    """(text, dropped lines, whole cell dropped?) with ``!``/``%`` statement lines blanked."""
    lines = source.split("\n")
    dropped = []
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = lines[first].strip()[2:].split()[0] if lines[first].strip()[2:] else ""
        dropped.append((first + 1, lines[first].strip()))
        if name not in _PYTHON_BODY_MAGICS:
            return "", dropped, True
        lines[first] = ""
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(("!", "%")):
            dropped.append((i + 1, stripped))
            # `pass` at the same indent keeps a block that held only the magic a valid block.
            lines[i] = line[: len(line) - len(stripped)] + "pass" if line != stripped else ""
    return "\n".join(lines), dropped, False


def parse_cells(sources):
    """The code cells' sources (in notebook order) as ``Cell``s."""
    cells = []
    for number, source in enumerate(sources, start=1):
        try:
            cells.append(Cell(number, source, _parse(source, number), [], None))
            continue
        except SyntaxError:
            pass
        text, dropped, whole = _without_magics(source)
        if whole:
            cells.append(Cell(number, source, None, dropped, None))
            continue
        try:
            cells.append(Cell(number, source, _parse(text, number), dropped, None))
        except SyntaxError as error:
            cells.append(Cell(number, source, None, dropped, f"{error.msg} (line {error.lineno})"))
    return cells


def note(reason):
    """The statement that ``render`` turns into ``# gpubook: reason``."""
    return ast.Expr(ast.Constant(MARK + reason))


def is_note(stmt):
    """Whether ``stmt`` is one of ``note``'s or ``commented``'s statements."""
    value = getattr(stmt, "value", None)
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(value, ast.Constant)
        and isinstance(value.value, str)
        and value.value.startswith(MARK)
    )


def commented(stmt):
    """The statement that ``render`` turns into ``stmt``'s code as comment lines (for code that
    would not even compile in a script, such as a top-level ``await``)."""
    return note("\x01" + ast.unparse(stmt))


def render(tree):
    """``ast.unparse`` with the ``note``/``commented`` statements as comments."""
    out = []
    escaped = repr(MARK)[1:-1]
    for line in ast.unparse(ast.fix_missing_locations(tree)).split("\n"):
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped[:1] in ("'", '"') and stripped.lstrip("'\"").startswith(escaped):
            text = ast.literal_eval(stripped)[len(MARK) :]
            if text.startswith("\x01"):
                out += [indent + "# " + code for code in text[1:].split("\n")]
            else:
                out.append(indent + "# gpubook: " + text)
        else:
            out.append(line)
    return "\n".join(out)
