"""``nn.DataParallel(module)``: PyTorch's wrapper, with ``.module`` and ``.device_ids``, over
the engine's data parallelism (engine/parallel). With several logical GPUs each forward scatters
the batch, runs the Python module's own ``forward`` once per device — on the primary parameters
on device_ids[0], and on the engine's replica copies elsewhere (the Parameter objects and the
engine layers are pointed at the copies while that device's forward runs) — and gathers the
outputs. Backward reduces every replica's gradients into the primary parameters (the engine's
hooks), so ``optimizer.step()`` makes one update, as in PyTorch. State dict keys carry the
``module.`` prefix."""

from .. import _bridge as b
from .. import cuda
from .module import Module


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        if device_ids is None:
            device_ids = list(range(cuda.device_count()))
        self.device_ids = [d.index if hasattr(d, "index") else int(d) for d in device_ids]
        self.output_device = self.device_ids[0] if output_device is None and self.device_ids else output_device
        self.dim = dim
        # The engine moves the module to device_ids[0] (PyTorch does for one device and requires
        # it otherwise).
        if self.device_ids:
            module.to(f"cuda:{self.device_ids[0]}")
        devices = [f"gpu:{i}" for i in self.device_ids]
        object.__setattr__(self, "_replicas", b.host.dataParallel.replicas(devices) if len(devices) > 1 else None)

    def forward(self, *inputs, **kwargs):
        if self._replicas is None or kwargs:
            return self.module(*inputs, **kwargs)
        dp = b.host.dataParallel
        devices = [f"gpu:{i}" for i in self.device_ids]
        parts = b.call(dp.scatter, list(inputs), devices, self.dim)
        tensors = [t for t in list(self.module.parameters()) + list(self.module.buffers())]
        primaries = [t._js for t in tensors]
        roots = [m._js for m in self.module.modules() if "_js" in m.__dict__]
        outputs = []
        for k, part in enumerate(parts):
            if k == 0:
                outputs.append(self.module(*part))
                continue
            copies = [dp.copyOf(self._replicas, t, k) for t in primaries]

            def run(part=part):
                outputs.append(self.module(*part))

            proxy = b.create_proxy(run)
            for t, copy in zip(tensors, copies):
                t._js = copy
            try:
                b.call(dp.withReplica, self._replicas, k, roots, primaries, proxy)
            finally:
                for t, primary in zip(tensors, primaries):
                    t._js = primary
                proxy.destroy()
        return b.call(dp.gather, outputs, f"gpu:{self.output_device}", self.dim)
