"""``torch.backends``: the switches notebooks set in their first cell.

gpubook has no cuDNN, no MPS and no TF32: its GPU is WebGPU (``torch.cuda`` answers for it) and
every kernel computes in float32. The flags are plain attributes that keep what a notebook sets,
so ``torch.backends.cudnn.deterministic = True`` runs; they change nothing, because the engine's
kernels are already deterministic (the same inputs give the same bits on a device) and there is
no algorithm search to benchmark (docs/python.md, "Notebook boilerplate").
"""

from . import cuda, cudnn, mps  # noqa: F401  torch.backends.cudnn, … re-exported
