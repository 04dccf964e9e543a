"""``SummaryWriter(log_dir=None, comment='', ...)``: the scalars a training loop logs for
TensorBoard, drawn instead as a live chart in the notebook (the kernel's ``metricsLogger``, the
chart ``KerasModel.fit`` draws), since no TensorBoard runs in the browser.

- ``add_scalar(tag, value, global_step)``: one point of the series ``tag``, in a panel of its own
  (TensorBoard's one chart per tag), at x = ``global_step``; without a step, at the tag's next
  index (TensorBoard would put every such point at step 0).
- ``add_scalars(main_tag, {tag: value}, global_step)``: one panel ``main_tag``, a series per tag.
- The chart appears in the cell that logs the writer's first scalar and is redrawn there live; a
  later cell that logs to the same writer shows a new chart with everything logged so far (each
  cell runs as its own asyncio task, which is how the writer tells cells apart).
- Every other ``add_*`` (histograms, images, graphs, text, figures, hparams, embeddings, …) is
  accepted and draws nothing; nothing is written to ``log_dir``. ``flush``/``close`` draw what is
  pending at once.
"""

import asyncio
import datetime
import os

from ... import _bridge as b

# TensorBoard's add_* methods this writer accepts without drawing (writer docs above).
_NOT_DRAWN = (
    "add_histogram",
    "add_histogram_raw",
    "add_image",
    "add_images",
    "add_image_with_boxes",
    "add_figure",
    "add_video",
    "add_audio",
    "add_text",
    "add_graph",
    "add_embedding",
    "add_pr_curve",
    "add_pr_curve_raw",
    "add_custom_scalars",
    "add_custom_scalars_multilinechart",
    "add_custom_scalars_marginchart",
    "add_mesh",
    "add_hparams",
    "add_onnx_graph",
)


def _cell():
    """The running cell (its asyncio task), or None outside one."""
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def _number(value, what):
    if hasattr(value, "item"):  # a 0-d or one-element tensor, a NumPy scalar
        value = value.item()
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(
            f"SummaryWriter.{what}: scalar_value must be a number or a one-element tensor, got {value!r}"
        ) from None


class SummaryWriter:
    def __init__(
        self,
        log_dir=None,
        comment="",
        purge_step=None,
        max_queue=10,
        flush_secs=120,
        filename_suffix="",
    ):
        if not log_dir:
            now = datetime.datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", f"{now}_gpubook{comment}")
        self.log_dir = str(log_dir)
        self._chart = None
        self._chart_cell = None
        self._points = []  # every (series, x, y, panel) logged, for a later cell's chart
        self._steps = {}
        self._closed = False

    def get_logdir(self):
        return self.log_dir

    def _point(self, series, panel, value, global_step, what):
        y = _number(value, what)
        if global_step is None:
            x = self._steps.get(series, 0)
        else:
            x = float(_number(global_step, what))
        self._steps[series] = x + 1
        self._points.append((series, x, y, panel))
        cell = _cell()
        if self._chart is None or cell is not self._chart_cell:
            logger = getattr(b.host.globals, "metricsLogger", None)
            if logger is None:  # outside a kernel: nothing can draw
                return
            self._chart = b.call(logger, title=f"SummaryWriter: {self.log_dir}", xLabel="step")
            self._chart_cell = cell
            for s, px, py, p in self._points[:-1]:
                b.call(self._chart.add, s, px, py, panel=p)
        b.call(self._chart.add, series, x, y, panel=panel)

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False, double_precision=False):
        self._point(str(tag), str(tag), scalar_value, global_step, "add_scalar")

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        if not isinstance(tag_scalar_dict, dict):
            raise TypeError(
                f"SummaryWriter.add_scalars: tag_scalar_dict must be a dict, got {type(tag_scalar_dict).__name__}"
            )
        for tag, value in tag_scalar_dict.items():
            self._point(str(tag), str(main_tag), value, global_step, "add_scalars")

    def flush(self):
        if self._chart is not None:
            self._chart.flush()

    def close(self):
        self.flush()
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __getattr__(self, name):
        if name in _NOT_DRAWN:
            return lambda *args, **kwargs: None
        raise AttributeError(f"'SummaryWriter' object has no attribute '{name}'")
