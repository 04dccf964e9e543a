# Run by pyodide-loader.ts with `runPython` (in __main__, so no docstring here: it would become
# the notebook's __doc__), which returns the last expression: `define_module`. The loader calls it
# for each of the kernel's own modules (modules/*.py): a module defined from source without a
# file, so it never shows up as an installed package, and its frames carry the file name
# "<gpubook NAME>", which the cell runner's traceback filter hides.

import sys
import types


def define_module(name, source):
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, "<gpubook " + name + ">", "exec"), module.__dict__)
    return module


define_module  # noqa: B018  the value runPython returns
