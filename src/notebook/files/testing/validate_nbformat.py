"""Checks the .ipynb text on stdin with Jupyter's own validator (Debian's python3-nbformat).

Exit 0 when nbformat.validate accepts it. Otherwise exit 1 and print, on stderr, the innermost
schema errors (path: message): validate itself names only the cell that fails.
"""

import json
import sys

import nbformat
from nbformat.validator import get_validator


def mismatched_type(error):
    """True for an error saying a cell or output is of another type than this branch's."""
    path = list(error.absolute_path)
    return bool(path) and path[-1] in ("cell_type", "output_type") and error.validator == "enum"


def leaves(error):
    """The innermost errors, following only the oneOf branches of the right cell/output type."""
    if not error.context:
        yield error
        return
    branches = {}
    for inner in error.context:
        branches.setdefault(inner.schema_path[0] if inner.schema_path else None, []).append(inner)
    for errors in branches.values():
        if not any(mismatched_type(e) for e in errors):
            for inner in errors:
                yield from leaves(inner)


def details(raw):
    validator = get_validator(4, raw.get("nbformat_minor", 5), name="jsonschema")
    lines = []
    for error in validator.iter_errors(raw):
        for e in leaves(error):
            line = f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            if line not in lines:
                lines.append(line)
    return lines[:20]


text = sys.stdin.read()
notebook = nbformat.reads(text, 4)
try:
    nbformat.validate(notebook)
except nbformat.ValidationError as error:
    print("\n".join(details(json.loads(text))) or str(error), file=sys.stderr)
    sys.exit(1)
print("valid")
