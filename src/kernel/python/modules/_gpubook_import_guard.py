"""A ``sys.meta_path`` finder placed right after the finders that can actually find modules (the
standard library's, Pyodide's ``js``/``pyodide_js``), so ``import numpy`` (or pandas, matplotlib,
accelerate, anything we do not ship) fails at once with a message that says why and what there is
instead. Without it the import would reach Pyodide's own hint, which tells the user to
``micropip.install`` from a CDN we never contact.

What is "available instead" is read from the interpreter's path at the time of the error (the
packages gpubook installed beside the standard library), not from a list kept here.

One of the kernel's own modules (src/kernel/python/modules/, defined by pyodide-loader.ts).
"""

import importlib.abc
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


def unavailable_message(name):
    packages = available_packages()
    instead = ", ".join(packages + ["the Python standard library"])
    return (
        f"No module named '{name}': it is not available in gpubook's browser Python, which "
        f"cannot install packages. Available instead: {instead}."
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
