"""``DataLoader`` (see the package doc: one thread; ``num_workers`` is accepted)."""

import math

from .dataset import Subset, TensorDataset, randperm


def default_collate(samples):
    import torch

    first = samples[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(samples, 0)
    if isinstance(first, bool):
        return torch.tensor(samples, dtype=torch.bool)
    if isinstance(first, int):
        return torch.tensor(samples, dtype=torch.int64)
    if isinstance(first, float):
        return torch.tensor(samples, dtype=torch.float32)
    if isinstance(first, dict):
        return {key: default_collate([s[key] for s in samples]) for key in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*(default_collate(list(f)) for f in zip(*samples)))
    if isinstance(first, (tuple, list)):
        return [default_collate(list(f)) for f in zip(*samples)]
    return samples


def _stacked(dataset):
    """``(tensors, rows)`` when the samples are rows of tensors (TensorDataset, MNIST, a Subset
    of one): ``rows`` maps dataset positions to rows (None: position i is row i)."""
    if isinstance(dataset, TensorDataset):
        return dataset.tensors, None
    if isinstance(dataset, Subset):
        inner = _stacked(dataset.dataset)
        if inner is None:
            return None
        tensors, rows = inner
        indices = dataset.indices if rows is None else [rows[i] for i in dataset.indices]
        return tensors, indices
    tensors = getattr(dataset, "_stacked", None)
    return None if tensors is None else (tensors, None)


class DataLoader:
    def __init__(
        self,
        dataset,
        batch_size=1,
        shuffle=False,
        sampler=None,
        batch_sampler=None,
        num_workers=0,
        collate_fn=None,
        pin_memory=False,
        drop_last=False,
        timeout=0,
        worker_init_fn=None,
        generator=None,
        *,
        prefetch_factor=None,
        persistent_workers=False,
        pin_memory_device="",
    ):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.sampler = sampler
        self.num_workers = num_workers
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.pin_memory = pin_memory

    def _order(self):
        if self.sampler is not None:
            return list(self.sampler)
        n = len(self.dataset)
        return randperm(n) if self.shuffle else list(range(n))

    def __iter__(self):
        order = self._order()
        size = self.batch_size or 1
        stop = len(order) - (len(order) % size if self.drop_last else 0)
        stacked = _stacked(self.dataset) if self.collate_fn is None else None
        for start in range(0, stop, size):
            batch = order[start : start + size]
            if self.batch_size is None:
                yield self.dataset[batch[0]]
            elif stacked is not None:
                # One gather per tensor instead of one select per sample and a stack.
                tensors, rows = stacked
                picked = batch if rows is None else [rows[i] for i in batch]
                yield [t[picked] for t in tensors]
            else:
                collate = self.collate_fn or default_collate
                yield collate([self.dataset[i] for i in batch])

    def __len__(self):
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        size = self.batch_size or 1
        return n // size if self.drop_last else math.ceil(n / size)
