"""``torchkeras``: ``KerasModel(net, loss_fn, metrics_dict, optimizer)`` with torchkeras's
``fit(train_data, val_data, epochs, ckpt_path, patience, monitor, mode)``.

The loop is written here in Python because the net, its ``forward`` and the data loaders are
Python objects; every step is the engine's (forward, loss, backward, optimizer step, metrics on
the device). It draws a progress bar per epoch and a live chart of the history (the kernel's
``metricsLogger``), keeps the best weights by ``monitor``/``mode`` in ``ckpt_path``
(``torch.save``), stops after ``patience`` epochs without improvement, restores the best weights
and returns the history (a small table; pandas is not available).
"""

import copy
import sys

import torch
from torch import _bridge as b
from tqdm import tqdm

from . import metrics as _metrics  # noqa: F401  importing it sets torchkeras.metrics
from .history import History

__version__ = "3.9.9+gpubook"


def summary(model, input_shape=None, input_data=None):
    """``torchkeras.summary(net, input_shape=(1, 28, 28))``: torchsummary's table."""
    return model.summary(input_shape=input_shape, input_data=input_data)


def _batch(batch, device):
    features, labels = batch[0], batch[1]
    return features.to(device), labels.to(device)


class _Stage:
    """One pass over a loader (train or val) accumulating the loss and the metrics."""

    def __init__(self, model, stage, metrics, device):
        self.model = model
        self.stage = stage
        self.metrics = {name: copy.deepcopy(m).to(device) for name, m in metrics.items()}
        self.device = device

    def run(self, loader, desc):
        training = self.stage == "train"
        self.model.net.train(training)
        total, steps = 0.0, 0
        loop = tqdm(loader, total=len(loader), file=sys.stdout, desc=desc)
        for batch in loop:
            features, labels = _batch(batch, self.device)
            if training:
                preds = self.model.net(features)
                loss = self.model.loss_fn(preds, labels)
                loss.backward()
                self.model.optimizer.step()
                self.model.optimizer.zero_grad()
            else:
                with torch.no_grad():
                    preds = self.model.net(features)
                    loss = self.model.loss_fn(preds, labels)
            step_loss = loss.item()
            total += step_loss
            steps += 1
            step_log = {f"{self.stage}_loss": step_loss}
            with torch.no_grad():
                for name, m in self.metrics.items():
                    step_log[f"{self.stage}_{name}"] = m(preds, labels).item()
            loop.set_postfix(**step_log)
        epoch_log = {f"{self.stage}_loss": total / max(steps, 1)}
        for name, m in self.metrics.items():
            epoch_log[f"{self.stage}_{name}"] = m.compute().item()
            m.reset()
        loop.set_postfix(**epoch_log)
        return epoch_log


class KerasModel(torch.nn.Module):
    def __init__(self, net, loss_fn, metrics_dict=None, optimizer=None, lr_scheduler=None, **kwargs):
        super().__init__()
        self.net = net
        self.loss_fn = loss_fn
        self.metrics_dict = dict(metrics_dict or {})
        self.optimizer = optimizer if optimizer is not None else torch.optim.Adam(net.parameters(), lr=1e-3)
        if lr_scheduler is not None:
            raise NotImplementedError("KerasModel: lr_scheduler is not supported yet")

    def forward(self, x):
        return self.net(x)

    def _device(self):
        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        self.net.to(device)
        return device

    def fit(
        self,
        train_data,
        val_data=None,
        epochs=10,
        ckpt_path="checkpoint.pt",
        patience=5,
        monitor="val_loss",
        mode="min",
        mixed_precision="no",
        callbacks=None,
        plot=True,
        quiet=False,
    ):
        device = self._device()
        if not quiet:
            print(f"<<<<<< ⚡️ {device.type} is used >>>>>>")
        logger = getattr(b.host.globals, "metricsLogger", None)
        chart = b.call(logger, title=f"{monitor}") if plot and logger is not None else None
        history = History()
        best, best_epoch = None, 0
        for epoch in range(1, epochs + 1):
            row = {"epoch": epoch}
            row.update(_Stage(self, "train", self.metrics_dict, device).run(train_data, f"Epoch {epoch} / {epochs}"))
            row["lr"] = self.optimizer.param_groups[0]["lr"]
            if val_data is not None:
                row.update(_Stage(self, "val", self.metrics_dict, device).run(val_data, "val"))
            history.append(row)
            if chart is not None:
                b.call(chart.log, row)
            if monitor not in row:
                raise KeyError(f"KerasModel.fit: monitor '{monitor}' is not among {list(row)}")
            value = row[monitor]
            improved = best is None or (value < best if mode == "min" else value > best)
            if improved:
                best, best_epoch = value, epoch
                torch.save(self.net.state_dict(), ckpt_path)
                if not quiet:
                    print(f"<<<<<< reach best {monitor} : {value} >>>>>>")
            elif epoch - best_epoch >= patience:
                if not quiet:
                    print(f"<<<<<< {monitor} without improvement in {patience} epoch, early stopping >>>>>>")
                break
        self.net.load_state_dict(torch.load(ckpt_path))
        return history

    def evaluate(self, val_data, quiet=False):
        device = self._device()
        return _Stage(self, "val", self.metrics_dict, device).run(val_data, "val")

    def summary(self, input_shape=None, input_data=None):
        return self.net.summary(input_shape=input_shape, input_data=input_data)

    @torch.no_grad()
    def predict(self, data):
        device = self._device()
        self.net.eval()
        try:
            if isinstance(data, torch.Tensor):
                return self.net(data.to(device))
            return torch.cat([self.net(_batch(batch, device)[0]) for batch in data], 0)
        finally:
            self.net.train()
