"""A small ``IPython`` for gpubook's browser Python: ``IPython.display`` (the display protocol:
``display``, ``clear_output``, ``HTML``, ``Markdown``, ``Image``, ``SVG``, ``JSON``, …) and
``get_ipython()``, which answers ``None`` as it does outside an IPython shell (there is no shell:
magics are handled by the kernel, docs/python.md).
"""

version_info = (8, 0, 0, "gpubook")
__version__ = "8.0.0+gpubook"


def get_ipython():
    """``None``: gpubook's kernel is not an IPython shell, so code that checks for one takes its
    plain-Python path."""
    return None
