/**
 * The same Python program under our `torch` and under real PyTorch (Debian's python3-torch,
 * 1.13, CPU), from the same weights and data (passed as JSON): losses, accuracies and trained
 * weights must agree to float32 rounding. Runs on the cpu backend and on WebGPU.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { startPython } from './testing/pyodide';
import { realTorchMissing, runRealTorch } from './testing/real-torch';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();
const noTorch = realTorchMissing();

function nested(shape: number[], next: () => number): unknown {
  if (shape.length === 0) return next();
  return Array.from({ length: shape[0] }, () => nested(shape.slice(1), next));
}

const rand = rng(1234);
const signed = (scale: number) => () => (rand() * 2 - 1 || 0.5) * scale;
const INPUT = {
  weights: {
    scale: [0.75],
    'conv1.weight': nested([4, 1, 3, 3], signed(0.4)),
    'conv1.bias': nested([4], signed(0.1)),
    'fc.weight': nested([5, 36], signed(0.2)),
    'fc.bias': nested([5], signed(0.1)),
  },
  x: nested([12, 1, 8, 8], () => rand() + 0.01),
  y: Array.from({ length: 12 }, (_, i) => (i * 7 + 3) % 5),
  lx: nested([64, 2], () => rand() * 10 - 5),
  noise: nested([64, 1], signed(0.5)),
};

/** Runs in both Pythons; DEVICE and INPUT are defined before it. */
const PROGRAM = `
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

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
    net.load_state_dict({k: torch.tensor(v) for k, v in INPUT['weights'].items()})
    net = net.to(DEVICE)
    x = torch.tensor(INPUT['x'])
    y = torch.tensor(INPUT['y'])
    loader = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=False, num_workers=2)
    if opt_name == 'sgd':
        opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    else:
        opt = torch.optim.Adam(net.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(3):
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
    return {'losses': losses, 'accuracy': accuracy, 'weights': weights}

def regress():
    X = torch.tensor(INPUT['lx'], device=DEVICE)
    w0 = torch.tensor([[2.0, -3.0]], device=DEVICE)
    b0 = torch.tensor([[10.0]], device=DEVICE)
    Y = X @ w0.t() + b0 + torch.tensor(INPUT['noise'], device=DEVICE)

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
    for epoch in range(40):
        opt.zero_grad()
        loss = loss_fn(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {'losses': losses, 'w': model.w.tolist(), 'b': model.b.item()}

RESULT = {'sgd': classify('sgd'), 'adam': classify('adam'), 'regress': regress()}
`;

interface Classified {
  losses: number[];
  accuracy: number;
  weights: Record<string, number[]>;
}
interface Result {
  sgd: Classified;
  adam: Classified;
  regress: { losses: number[]; w: number[][]; b: number };
}

function expectNear(ours: number[], theirs: number[], tol: number, what: string): void {
  expect(ours.length, what).toBe(theirs.length);
  ours.forEach((v, i) => {
    const err = Math.abs(v - theirs[i]) / Math.max(1, Math.abs(theirs[i]));
    expect(err, `${what}[${i}]: ${v} vs ${theirs[i]}`).toBeLessThanOrEqual(tol);
  });
}

const describeReal = noTorch === null ? describe : describe.skip;
if (noTorch !== null) console.warn(`pytorch-peer.test.ts skipped: ${noTorch}`);

describeReal('the same program under real PyTorch (Debian python3-torch)', () => {
  const theirs =
    noTorch === null
      ? (runRealTorch(`DEVICE = 'cpu'\n${PROGRAM}\nprint(json.dumps(RESULT))`, INPUT) as Result)
      : null;

  it.each(devices)('gives the same losses and weights on %s', async (device) => {
    const ours = (await python.run(`
import json
INPUT = json.loads(${JSON.stringify(JSON.stringify(INPUT))})
DEVICE = ${JSON.stringify(device)}
${PROGRAM}
RESULT
`)) as Result;
    const real = theirs as Result;
    for (const opt of ['sgd', 'adam'] as const) {
      expectNear(ours[opt].losses, real[opt].losses, 2e-5, `${opt} losses`);
      expect(ours[opt].accuracy).toBeCloseTo(real[opt].accuracy, 6);
      for (const key of Object.keys(real[opt].weights)) {
        expectNear(ours[opt].weights[key], real[opt].weights[key], 5e-5, `${opt} ${key}`);
      }
    }
    // Training moved the weights away from where they started.
    expect(ours.sgd.weights['fc.bias']).not.toEqual(INPUT.weights['fc.bias']);
    expectNear(ours.regress.losses, real.regress.losses, 5e-5, 'regression losses');
    expectNear(ours.regress.w.flat(), real.regress.w.flat(), 2e-5, 'regression w');
    expectNear([ours.regress.b], [real.regress.b], 2e-5, 'regression b');
  });
});
