"""``tqdm.notebook``: the same live progress bar as ``tqdm`` (the notebook draws it; there is no
separate console or widget form here), so ``from tqdm.notebook import tqdm, trange`` runs."""

from . import tqdm, trange

__all__ = ["tqdm", "trange"]

# tqdm's older notebook names.
tqdm_notebook = tqdm
tnrange = trange
__all__ += ["tqdm_notebook", "tnrange"]
