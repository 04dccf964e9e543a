"""Run by real-torch.ts under real PyTorch (Debian's python3-torch at /usr/bin/python3) as
``python3 -c <this file> SCRIPT``: reads INPUT as JSON from stdin and runs the test's SCRIPT (its
text) as the main module, where ``json``, ``sys``, ``torch`` and ``INPUT`` are already defined;
the script prints one JSON value. Without SCRIPT it only prints torch's version (the probe that
says whether real PyTorch is here). A test fixture, not an installed package.
"""

import json
import sys

import torch

if len(sys.argv) < 2:
    print(torch.__version__)
else:
    _script = sys.argv.pop(1)
    INPUT = json.load(sys.stdin)
    exec(compile(_script, "<script>", "exec"), globals())
