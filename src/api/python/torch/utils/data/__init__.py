"""``torch.utils.data``: Dataset, TensorDataset, Subset, random_split and DataLoader.

The DataLoader runs in the kernel's one thread: ``num_workers`` (and ``pin_memory``,
``persistent_workers``, ``prefetch_factor``) are accepted and change nothing, since a browser
worker has no processes to fork; batches are made when the loop asks for them. Samples are
collated as PyTorch's default collate does: tensors stacked, numbers made into a tensor, tuples,
lists and dicts collated field by field. Shuffling uses the engine's seeded generator
(``torch.manual_seed``), so runs repeat.
"""

from .dataloader import DataLoader, default_collate  # noqa: F401  re-exported
from .dataset import Dataset, Subset, TensorDataset, random_split  # noqa: F401  re-exported
