"""``torch.return_types``: the (values, indices) pairs that ``max(dim)``, ``min(dim)``, ``sort``,
``topk``, ``kthvalue`` and ``median(dim)`` return. Tuples with ``values`` and ``indices`` fields,
each op its own type, printed as PyTorch prints them:
``torch.return_types.sort(\\nvalues=tensor(...),\\nindices=tensor(...))``.
"""

from collections import namedtuple

_Pair = namedtuple("_Pair", ["values", "indices"])


def _pair_type(name):
    def __repr__(self):
        return f"torch.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    return type(name, (_Pair,), {"__slots__": (), "__repr__": __repr__, "__module__": "torch.return_types"})


max = _pair_type("max")  # noqa: A001  PyTorch's names
min = _pair_type("min")  # noqa: A001
sort = _pair_type("sort")
topk = _pair_type("topk")
kthvalue = _pair_type("kthvalue")
median = _pair_type("median")

_BY_KIND = {"max": max, "min": min, "sort": sort, "topk": topk, "kthvalue": kthvalue, "median": median}


def of(kind):
    """The result type an engine ``ValuesIndices`` of this kind ('max', 'sort', …) becomes."""
    return _BY_KIND.get(kind, max)
