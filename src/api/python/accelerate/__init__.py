"""Hugging Face ``accelerate``'s ``Accelerator`` for one process: the device it picks (the GPU as
``cuda`` when WebGPU gave us one, else the CPU), ``prepare`` moving models and the batches of
data loaders there, and the process-group names a single-process run answers
(``is_main_process``, ``gather``, ``wait_for_everyone``, …) as accelerate answers them.

The engine computes in float32 only, so ``mixed_precision`` other than ``"no"`` is refused rather
than silently ignored; there is no distributed launch in a browser tab (``num_processes`` is 1).
"""

import contextlib
import enum

import torch

__version__ = "0.21.0+gpubook"


class DistributedType(str, enum.Enum):
    """accelerate's ``DistributedType``; a notebook is always ``NO``."""

    NO = "NO"


def _to(value, device):
    """Tensors anywhere in a batch (tuples, lists, dicts) moved to ``device``."""
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        moved = [_to(v, device) for v in value]
        return type(value)(moved) if not hasattr(value, "_fields") else type(value)(*moved)
    if isinstance(value, dict):
        return type(value)((k, _to(v, device)) for k, v in value.items())
    return value


class _DeviceLoader:
    """What ``prepare`` makes of a DataLoader (accelerate's ``DataLoaderShard``): the same
    batches, on the accelerator's device."""

    def __init__(self, loader, device):
        self._loader = loader
        self.device = device

    def __iter__(self):
        for batch in self._loader:
            yield _to(batch, self.device)

    def __len__(self):
        return len(self._loader)

    def __getattr__(self, name):
        if name.startswith("__") or name == "_loader":
            raise AttributeError(name)
        return getattr(self._loader, name)


class Accelerator:
    """``Accelerator(cpu=False, mixed_precision=None, device_placement=True, …)``."""

    def __init__(
        self,
        device_placement=True,
        split_batches=False,
        mixed_precision=None,
        gradient_accumulation_steps=1,
        cpu=False,
        **kwargs,
    ):
        if mixed_precision not in (None, "no"):
            raise ValueError(
                f"mixed_precision={mixed_precision!r} is not available in gpubook: its engine computes in "
                "float32 only (use mixed_precision='no')"
            )
        if gradient_accumulation_steps != 1:
            raise ValueError("gradient_accumulation_steps other than 1 is not available in gpubook")
        self.device_placement = device_placement
        self.split_batches = split_batches
        self.mixed_precision = "no"
        self.gradient_accumulation_steps = 1
        use_gpu = not cpu and torch.cuda.is_available()
        # accelerate's single-GPU device has no index: it prints as "cuda".
        self.device = torch.device("cuda" if use_gpu else "cpu")
        self.distributed_type = DistributedType.NO
        self.num_processes = 1
        self.process_index = 0
        self.local_process_index = 0
        self.is_main_process = True
        self.is_local_main_process = True
        self.is_last_process = True
        self.use_distributed = False
        self.sync_gradients = True

    def __repr__(self):
        return f"<accelerate.Accelerator device={self.device}>"

    # ------------------------------------------------------------------ preparing objects
    def prepare(self, *args, device_placement=None):
        """Each model moved to the device, each DataLoader yielding batches there; anything else
        (optimizers, schedulers) as it is. One argument gives one object, several a tuple."""
        if device_placement is None:
            device_placement = [None] * len(args)
        result = tuple(self._prepare_one(obj, place) for obj, place in zip(args, device_placement))
        return result[0] if len(result) == 1 else result

    def _prepare_one(self, obj, place):
        place = self.device_placement if place is None else place
        if isinstance(obj, torch.nn.Module):
            return self.prepare_model(obj, device_placement=place)
        if isinstance(obj, torch.utils.data.DataLoader):
            return self.prepare_data_loader(obj, device_placement=place)
        return obj

    def prepare_model(self, model, device_placement=None, evaluation_mode=False):
        if self.device_placement if device_placement is None else device_placement:
            model.to(self.device)
        return model

    def prepare_data_loader(self, data_loader, device_placement=None):
        if not (self.device_placement if device_placement is None else device_placement):
            return data_loader
        return _DeviceLoader(data_loader, self.device)

    def prepare_optimizer(self, optimizer, device_placement=None):
        return optimizer

    def prepare_scheduler(self, scheduler):
        return scheduler

    def unwrap_model(self, model, keep_fp32_wrapper=True):
        return getattr(model, "module", model)

    # ------------------------------------------------------------------ training steps
    def backward(self, loss, **kwargs):
        loss.backward(**kwargs)

    @contextlib.contextmanager
    def accumulate(self, *models):
        yield

    @contextlib.contextmanager
    def no_sync(self, model):
        yield

    @contextlib.contextmanager
    def autocast(self, autocast_handler=None):
        yield

    # ------------------------------------------------------------------ one process's answers
    def gather(self, tensor):
        return tensor

    def gather_for_metrics(self, input_data, use_gather_object=False):
        return input_data

    def reduce(self, tensor, reduction="sum", scale=1.0):
        return tensor * scale if scale != 1.0 else tensor

    def pad_across_processes(self, tensor, dim=0, pad_index=0, pad_first=False):
        return tensor

    def wait_for_everyone(self):
        pass

    def print(self, *args, **kwargs):
        """``print`` on the main process only (here: always)."""
        print(*args, **kwargs)

    def save(self, obj, f, safe_serialization=False):
        torch.save(obj, f)

    def free_memory(self, *objects):
        torch.cuda.empty_cache()
        return [None] * len(objects)

    def end_training(self):
        pass
