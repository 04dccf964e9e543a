"""``torch.utils``."""

from . import data  # noqa: F401  torch.utils.data, re-exported
