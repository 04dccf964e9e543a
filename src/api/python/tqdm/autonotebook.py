"""``tqdm.autonotebook``: the same live progress bar as ``tqdm`` (the notebook draws it; there is no
separate console or widget form here), so ``from tqdm.autonotebook import tqdm, trange`` runs."""

from . import tqdm, trange

__all__ = ["tqdm", "trange"]
