"""``from IPython.core.getipython import get_ipython``."""

from IPython import get_ipython

__all__ = ["get_ipython"]
