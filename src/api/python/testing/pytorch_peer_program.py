"""The program pytorch-peer.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU), from the same weights and data: a
small CNN classifier trained with SGD and with Adam, and a linear regression. It leaves the losses,
accuracies and trained weights in ``RESULT``, which the test compares.

The test defines ``INPUT`` (the weights and data, read from JSON) and ``DEVICE`` ("cpu" or
"cuda:0"; real PyTorch runs on the CPU) before it runs. A test fixture, not an installed package.
"""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(36, 5)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        return self.fc(torch.flatten(x, 1)) * self.scale


def classify(opt_name):
    net = Net()
    net.load_state_dict({k: torch.tensor(v) for k, v in INPUT["weights"].items()})
    net = net.to(DEVICE)
    x = torch.tensor(INPUT["x"])
    y = torch.tensor(INPUT["y"])
    loader = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=False, num_workers=2)
    if opt_name == "sgd":
        opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    else:
        opt = torch.optim.Adam(net.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _epoch in range(3):
        net.train()
        for features, labels in loader:
            features, labels = features.to(DEVICE), labels.to(DEVICE)
            opt.zero_grad()
            loss = loss_fn(net(features), labels)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    net.eval()
    with torch.no_grad():
        logits = net(x.to(DEVICE))
        accuracy = (logits.argmax(dim=1) == y.to(DEVICE)).float().mean().item()
    weights = {k: v.cpu().reshape(-1).tolist() for k, v in net.state_dict().items()}
    return {"losses": losses, "accuracy": accuracy, "weights": weights}


def regress():
    X = torch.tensor(INPUT["lx"], device=DEVICE)
    w0 = torch.tensor([[2.0, -3.0]], device=DEVICE)
    b0 = torch.tensor([[10.0]], device=DEVICE)
    Y = X @ w0.t() + b0 + torch.tensor(INPUT["noise"], device=DEVICE)

    class LinearRegression(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.full((1, 2), 0.5))
            self.b = nn.Parameter(torch.zeros_like(b0))

        def forward(self, x):
            return x @ self.w.t() + self.b

    model = LinearRegression().to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    loss_fn = nn.MSELoss()
    losses = []
    for _epoch in range(40):
        opt.zero_grad()
        loss = loss_fn(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {"losses": losses, "w": model.w.tolist(), "b": model.b.item()}


RESULT = {"sgd": classify("sgd"), "adam": classify("adam"), "regress": regress()}
