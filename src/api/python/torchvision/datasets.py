"""``torchvision.datasets.MNIST`` and ``FashionMNIST`` from the data bundled with gpubook (``root``
and ``download`` are accepted; nothing is downloaded). Loading waits for the files like any read
(run_sync). torchvision's other datasets are the TS layer's: calling one raises a RuntimeError
that says gpubook does not bundle it (src/api/not-bundled.ts)."""

from torch import _bridge as b
from torch.utils.data import Dataset

from .transforms import Compose, _Engine


def _engine_transform(transform):
    if transform is None:
        return None
    if isinstance(transform, _Engine) or (isinstance(transform, Compose) and transform._engine):
        return transform._js_value()
    return None


class MNIST(Dataset):
    # The TS layer's loader of this dataset (src/api/torch/torchvision.ts).
    _js_name = "MNIST"

    def __init__(self, root="", train=True, transform=None, target_transform=None, download=False, **kwargs):
        self.root = root
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        engine = _engine_transform(transform)
        # A transform the engine cannot run (a Python function) is applied per item below.
        self._py_transform = None if engine is not None else transform
        limit = kwargs.pop("limit", None)
        load = getattr(b.host.torchvision.datasets, self._js_name)
        self._js = b.wait(b.call(load, root, train, engine, None, download, limit=limit))
        source = self._js.tensorSource()
        self._stacked = None
        if source is not None and source.rows is None and target_transform is None and self._py_transform is None:
            self._stacked = [b.from_js(t, fresh=False) for t in source.tensors]
        self.classes = list(self._js.classes)

    def __len__(self):
        return self._js.length

    def __getitem__(self, index):
        if index < 0:
            index += len(self)
        # Through the bridge: Pyodide reads a JS object's own .get as a Python mapping's get.
        image, label = b.call(b.host.datasetItem, self._js, int(index))
        if self._py_transform is not None:
            image = self._py_transform(image)
        target = label.item()
        if self.target_transform is not None:
            target = self.target_transform(target)
        return image, target

    @property
    def targets(self):
        return b.from_js(self._js.targets, fresh=False)

    @property
    def data(self):
        return b.from_js(self._js.data)

    def __repr__(self):
        lines = [
            f"Dataset {type(self).__name__}",
            f"    Number of datapoints: {len(self)}",
            f"    Root location: {self.root}",
            f"    Split: {'Train' if self.train else 'Test'}",
        ]
        if self.transform is not None:
            lines.append("    StandardTransform")
            lines.append("Transform: " + repr(self.transform).replace("\n", "\n           "))
        return "\n".join(lines)


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST: MNIST's format and splits, ten kinds of clothing (``classes``)."""

    _js_name = "FashionMNIST"


def __getattr__(name):
    # torchvision's datasets that gpubook does not bundle: the TS layer's loader raises the error.
    fn = b.PYTORCH.function(b.host.torchvision.datasets, name)
    if fn is None:
        raise AttributeError(f"module 'torchvision.datasets' has no attribute '{name}'")
    return fn
