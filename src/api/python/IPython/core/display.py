"""``from IPython.core.display import HTML, display`` (older notebooks' spelling) works too."""

from IPython.display import *  # noqa: F403
from IPython.display import __all__  # noqa: F401
