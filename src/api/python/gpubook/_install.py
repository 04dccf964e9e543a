"""Called once by install.ts (``installPythonPackages``) after our packages are importable:
gpubook's notebook helpers (``display``, ``params``, ``timeit``, ...) become builtins, so every
Python cell has them without an import, as TypeScript cells have them as globals.
"""

import builtins

import gpubook


def install_builtins():
    for name in gpubook.__all__:
        setattr(builtins, name, getattr(gpubook, name))
