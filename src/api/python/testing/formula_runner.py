"""Run by keras-reference.ts under Debian's CPython with NumPy (``/usr/bin/python3``) as
``python3 -c <this file> SCRIPT``: reads INPUT as JSON from stdin, runs the test's SCRIPT (a
float64 NumPy implementation of the documented formulas) with ``json``, ``np`` and ``INPUT``
defined, and prints the global RESULT the script leaves, as JSON. Without SCRIPT it prints NumPy's
version (the probe). A test fixture, not an installed package.
"""

import json
import sys

import numpy as np

if len(sys.argv) < 2:
    print(np.__version__)
else:
    _script = sys.argv[1]
    del sys.argv[1:]
    INPUT = json.load(sys.stdin)
    exec(compile(_script, "<reference>", "exec"), globals())
    print(json.dumps(globals()["RESULT"]))
