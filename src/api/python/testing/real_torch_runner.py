"""Run by real-torch.ts under real PyTorch (Debian's python3-torch at /usr/bin/python3) as
``python3 -c <this file> SCRIPT [NAME]``: reads INPUT as JSON from stdin and runs the test's
SCRIPT (its text) as the main module, where ``json``, ``sys``, ``torch`` and ``INPUT`` are already
defined; the script prints one JSON value, or with NAME this prints the global the script leaves
under that name as JSON. Without SCRIPT it only prints torch's version (the probe that says
whether real PyTorch is here; scripts/ensure-deps.mjs runs it as a file for the same question).
A test fixture, not an installed package.
"""

import json
import sys

import torch

if len(sys.argv) < 2:
    print(torch.__version__)
else:
    _script, *_result = sys.argv[1:]
    del sys.argv[1:]
    INPUT = json.load(sys.stdin)
    exec(compile(_script, "<script>", "exec"), globals())
    if _result:
        print(json.dumps(globals()[_result[0]]))
