"""``torch.backends.mps``: Apple's Metal backend is not part of gpubook (its GPU is WebGPU, which
``torch.cuda`` answers for), so both answers are False, as in PyTorch's non-Apple builds."""


def is_available():
    return False


def is_built():
    return False
