"""``torch.amp``: ``autocast`` and ``GradScaler`` as mixed-precision training code writes them.

The engine computes every op in float32 (it has no float16 kernels), so there is nothing to cast
to a lower precision and no float16 gradient to keep from underflowing. Both therefore behave as
PyTorch's own do where the device has no lower-precision autocast (PyTorch disables them there):
``autocast`` runs its block unchanged and ``GradScaler`` scales by 1, so
``scaler.scale(loss).backward(); scaler.step(opt); scaler.update()`` trains exactly as
``loss.backward(); opt.step()`` (docs/python.md, "Mixed precision").
"""

from .autocast_mode import autocast, is_autocast_available  # noqa: F401  re-exported
from .grad_scaler import GradScaler  # noqa: F401  re-exported
