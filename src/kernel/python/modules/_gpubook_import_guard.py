"""A ``sys.meta_path`` finder placed right after the finders that can actually find modules (the
standard library's, Pyodide's ``js``/``pyodide_js``), so an import nothing found fails at once with
a message that says why and what to do. Without it the import would reach Pyodide's own hint,
which tells the user to ``micropip.install`` from a CDN we never contact.

Pyodide's packages (numpy, pandas, ...) are loaded before a cell runs by the kernel
(src/kernel/python/packages/package-loader.ts), which tells this module which modules the lock
provides and which failed to load and why; the finder raises those reasons.

What is "available instead" is read from the interpreter's path at the time of the error (the
packages gpubook installed beside the standard library), not from a list kept here.

One of the kernel's own modules (src/kernel/python/modules/, defined by pyodide-loader.ts).
"""

import importlib.abc
import importlib.util
import json
import os
import pkgutil
import sys

__tracebackhide__ = True


def package_dirs():
    """sys.path entries that hold installed packages: not the stdlib and not the working dir."""
    here = os.getcwd()
    for entry in sys.path:
        if entry in ("", ".", here) or entry.endswith(".zip") or entry.endswith("lib-dynload"):
            continue
        if os.path.isdir(entry):
            yield entry


def available_packages():
    names = set()
    for info in pkgutil.iter_modules(list(package_dirs())):
        if not info.name.startswith("_"):
            names.add(info.name)
    return sorted(names)


# Set by the package loader: top-level module -> "package version" for every module the lock
# provides, and module -> message for the imports whose package could not be loaded.
_lock_modules = {}
_failures = {}


def set_lock_modules(text):
    global _lock_modules
    _lock_modules = json.loads(text)


def set_failures(text):
    global _failures
    _failures = json.loads(text)


def imports_of(code):
    """The top-level modules ``code`` imports, as JSON (none when it does not parse)."""
    from pyodide.code import find_imports

    try:
        names = find_imports(code)
    except SyntaxError:
        names = []
    return json.dumps(sorted({name.split(".")[0] for name in names}))


def missing(text):
    """The names of a JSON list that no finder finds now, as JSON."""
    result = []
    for name in json.loads(text):
        try:
            found = name in sys.modules or importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = True
        if not found:
            result.append(name)
    return json.dumps(result)


def unavailable_message(name):
    failure = _failures.get(name)
    if failure is not None:
        return failure
    package = _lock_modules.get(name)
    if package is not None:
        return (
            f"No module named '{name}': it is in Pyodide's package {package}, which gpubook loads "
            f"before a cell runs when the cell imports it; import {name} at the top of a cell (not "
            f"through importlib or __import__) and run that cell."
        )
    packages = available_packages()
    instead = ", ".join(packages + ["the Python standard library"])
    return (
        f"No module named '{name}': it is not among Pyodide's packages, which gpubook loads when a "
        f"cell imports them; a pure-Python package on PyPI can be installed with %pip install. "
        f"Available now: {instead}."
    )


def _probing():
    """importlib.util.find_spec asks whether a module exists: answer None, as CPython does."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "find_spec" and frame.f_globals.get("__name__") == "importlib.util":
            return True
        frame = frame.f_back
    return False


class UnavailableModuleFinder(importlib.abc.MetaPathFinder):
    """Last real finder: a top-level module nobody found is one gpubook does not ship."""

    def find_spec(self, fullname, path=None, target=None):
        # Submodules of a package that exists are its own business (its __path__ was searched).
        if path is not None or _probing():
            return None
        raise ModuleNotFoundError(unavailable_message(fullname), name=fullname)


def install():
    finders = [f for f in sys.meta_path if not isinstance(f, UnavailableModuleFinder)]
    # Pyodide's hint finders (which point at micropip and a CDN) come after every real finder;
    # ours goes in front of them.
    position = len(finders)
    for index, finder in enumerate(finders):
        if isinstance(finder, type) and finder.__module__ == "_pyodide._importhook":
            position = index
            break
    finders.insert(position, UnavailableModuleFinder())
    sys.meta_path[:] = finders
