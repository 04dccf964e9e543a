"""``torch.utils.tensorboard``: ``SummaryWriter`` drawing its scalars as the notebook's live chart
(there is no TensorBoard server in the browser; writer.py says what each ``add_*`` does)."""

from .writer import SummaryWriter  # noqa: F401  re-exported
