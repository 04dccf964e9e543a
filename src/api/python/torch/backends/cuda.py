"""``torch.backends.cuda``: ``matmul.allow_tf32`` and friends, settable with PyTorch's defaults.
The engine's products always compute in float32 (no TF32, no reduced-precision reductions), so
setting them changes nothing (backends/__init__). ``is_built()`` is False, as ``torch.version.cuda``
is None: the GPU is reached through WebGPU, not a CUDA build (``torch.cuda.is_available()``)."""


class _MatmulFlags:
    def __init__(self):
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()


def is_built():
    return False
