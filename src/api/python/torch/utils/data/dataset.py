"""Datasets written in Python (a ``Dataset`` subclass with ``__len__``/``__getitem__``)."""

from ... import _bridge as b


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        raise NotImplementedError("ConcatDataset is not available")


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = list(indices)

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def randperm(n):
    """A permutation of range(n) from the engine's seeded generator (set by torch.manual_seed)."""
    return [int(i) for i in b.host.randpermList(n)]


def random_split(dataset, lengths, generator=None):
    n = len(dataset)
    sizes = list(lengths)
    if all(0 < f < 1 for f in sizes) and abs(sum(sizes) - 1) < 1e-9:
        sizes = [int(f * n) for f in sizes]
        i = 0
        while sum(sizes) < n:
            sizes[i % len(sizes)] += 1
            i += 1
    if sum(sizes) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(n)
    out, at = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[at : at + size]))
        at += size
    return out
