"""The benchmark's training steps as a PyTorch user writes them (the nets and sizes of ours.ts),
run by python.ts in Pyodide with gpubook's ``torch`` over our engine. Each ``*_step`` / ``op_crossing``
function builds one case and returns the callable a repetition times.
"""

import torch
from torch import nn

dev = torch.device("cuda:0")


def mnist_cnn():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 5),
        nn.MaxPool2d(2),
        nn.Dropout2d(0.1),
        nn.AdaptiveMaxPool2d(1),
        nn.Flatten(),
        nn.Linear(64, 32),
        nn.ReLU(),
        nn.Linear(32, 10),
    )


class Trainer:
    """One training step: forward, loss, backward, Adam; returns the loss read back."""

    def __init__(self, net, loss_fn, x, y, lr=1e-3):
        self.net = net.to(dev)
        self.loss_fn = loss_fn
        self.x, self.y = x, y
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)

    def __call__(self):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.net(self.x), self.y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


def cnn_step(batch):
    x = torch.randn(batch, 1, 28, 28, device=dev)
    y = (torch.rand(batch, device=dev) * 9.99).int()
    return Trainer(mnist_cnn(), nn.CrossEntropyLoss(), x, y)


def linreg_step(points):
    x = torch.randn(points, 2, device=dev)
    w = torch.tensor([[2.0], [-3.4]], device=dev)
    y = x @ w + 4.2 + torch.randn(points, 1, device=dev) * 0.1
    return Trainer(nn.Linear(2, 1), nn.MSELoss(), x, y, lr=0.03)


def op_crossing(ops):
    x = torch.rand(16, device=dev)

    def run():
        y = x
        for _ in range(ops):
            y = y + 1
        y.tolist()

    return run


class LSTMClassifier(nn.Module):
    """Issue 36: a 2-layer LSTM over [batch, 32, 64], a linear head on the last step's output."""

    def __init__(self, features=64, hidden=128, layers=2, classes=10):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


class TransformerClassifier(nn.Module):
    """Issue 36: a 2-layer TransformerEncoder (d_model 128, 4 heads, feed-forward 256), mean over
    the sequence, a linear head."""

    def __init__(self, d_model=128, heads=4, feed_forward=256, layers=2, classes=10):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, heads, feed_forward, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d_model, classes)

    def forward(self, x):
        return self.head(self.encoder(x).mean(1))


def lstm_step(batch):
    torch.manual_seed(0)
    x = torch.randn(batch, 32, 64, device=dev)
    y = (torch.rand(batch, device=dev) * 9.99).long()
    return Trainer(LSTMClassifier(), nn.CrossEntropyLoss(), x, y)


def transformer_step(batch):
    torch.manual_seed(0)
    x = torch.randn(batch, 64, 128, device=dev)
    y = (torch.rand(batch, device=dev) * 9.99).long()
    trainer = Trainer(TransformerClassifier(), nn.CrossEntropyLoss(), x, y)
    trainer.optimizer = torch.optim.AdamW(trainer.net.parameters(), lr=1e-3)
    return trainer
