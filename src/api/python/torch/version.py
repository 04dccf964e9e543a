"""``torch.version``: the version of PyTorch's API this package follows, and no CUDA toolkit.

``cuda`` is None as in PyTorch's CPU builds, even where ``torch.cuda.is_available()`` is True:
gpubook's GPU is reached through WebGPU, not CUDA, so there is no CUDA version to report
(docs/python.md, "Notebook boilerplate")."""

__version__ = "2.5.0+gpubook"
cuda = None
hip = None
debug = False
git_version = "gpubook"
