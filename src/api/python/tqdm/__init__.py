"""``tqdm``: a live progress bar in the cell (the kernel's own progress output), counted from
Python. ``file=sys.stdout`` and the other display options are accepted; the bar is drawn by the
notebook, not written as text. Outside a kernel (no progress output), the final state is printed.
Numeric ``set_postfix`` values (and ``name=value`` pairs of ``set_postfix_str``) also feed the
cell's automatic loop chart (``gpubook.auto_chart``)."""

import sys

from torch import _bridge as b

__version__ = "4.66.0+gpubook"


class tqdm:
    def __init__(
        self,
        iterable=None,
        desc=None,
        total=None,
        leave=True,
        file=None,
        ncols=None,
        mininterval=0.1,
        maxinterval=10.0,
        miniters=None,
        ascii=None,
        disable=False,
        unit="it",
        unit_scale=False,
        dynamic_ncols=False,
        smoothing=0.3,
        bar_format=None,
        initial=0,
        position=None,
        postfix=None,
        **kwargs,
    ):
        if total is None and iterable is not None and hasattr(iterable, "__len__"):
            total = len(iterable)
        self.iterable = iterable
        self.total = total
        self.desc = desc
        self.n = initial
        self.file = file
        self.disable = disable
        self._postfix = {}
        self._closed = False
        progress = getattr(b.host.globals, "progress", None)
        self._bar = None
        if progress is not None and not disable:
            self._bar = b.call(progress, total, desc=desc or "", unit=unit)
            if initial:
                self._bar.set(initial)
        if postfix:
            self.set_postfix(postfix)

    def __iter__(self):
        try:
            for item in self.iterable:
                # While the body runs, the bar is at item n + 1 (the loop chart's x for a postfix).
                if self._bar is not None:
                    self._bar.iterating = True
                yield item
                if self._bar is not None:
                    self._bar.iterating = False
                self.update(1)
        finally:
            if self._bar is not None:
                self._bar.iterating = False
            self.close()

    def __len__(self):
        return self.total if self.total is not None else len(self.iterable)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def update(self, n=1):
        self.n += n
        if self._bar is not None:
            self._bar.update(n)

    def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
        values = dict(ordered_dict or {}, **kwargs)
        self._postfix = {k: (v.item() if hasattr(v, "item") and hasattr(v, "_js") else v) for k, v in values.items()}
        if self._bar is not None:
            b.call(self._bar.setPostfix, self._postfix)

    def set_postfix_str(self, s="", refresh=True):
        self._postfix = {str(s): ""} if s else {}
        if self._bar is not None:
            self._bar.setPostfixStr(str(s))

    def set_description(self, desc=None, refresh=True):
        self.desc = desc
        if self._bar is not None:
            self._bar.setDescription(desc or "")

    def close(self):
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.close()
        elif not self.disable:
            total = "?" if self.total is None else self.total
            post = ", ".join(f"{k}={v}" if v != "" else k for k, v in self._postfix.items())
            print(
                f"{self.desc + ': ' if self.desc else ''}{self.n}/{total}" + (f" [{post}]" if post else ""),
                file=self.file or sys.stderr,
            )


def trange(*args, **kwargs):
    return tqdm(range(*args), **kwargs)


__all__ = ["tqdm", "trange"]
