/**
 * `class Net(nn.Module)` in Python: registration by attribute, printing, state dicts, modes and
 * devices; and training, whose losses equal those of the same network written as a TypeScript
 * cell (same engine, same seed, same weights), on the cpu and on WebGPU.
 */
import { describe, expect, it } from 'vitest';
import type { Tensor } from '../../engine';
import { testDevices } from '../../engine/testing/devices';
import { nn, optim, torch } from '../index';
import { startPython } from './testing/pyodide';
import { realTorchMissing, runRealTorch } from './testing/real-torch';

const devices = (await testDevices()).map((d) => d.name);
const python = await startPython();
const noTorch = realTorchMissing();

const NET = `
import torch
from torch import nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.pool = nn.MaxPool2d(2)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(4 * 3 * 3, 5)
        self.scale = nn.Parameter(torch.ones(1) * 0.5)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        return self.fc(self.flatten(x)) * self.scale
`;

/** The same network as a TypeScript cell writes it (API.md). */
class TsNet extends nn.Module {
  conv1 = new nn.Conv2d(1, 4, 3);
  pool = new nn.MaxPool2d(2);
  flatten = new nn.Flatten();
  fc = new nn.Linear(4 * 3 * 3, 5);
  scale = new nn.Parameter(torch.ones(1).mul(0.5));
  override forward(x: Tensor): Tensor {
    const h = this.pool(nn.functional.relu(this.conv1(x) as Tensor)) as Tensor;
    return (this.fc(this.flatten(h) as Tensor) as Tensor).mul(this.scale);
  }
}

const LABELS = [0, 3, 1, 4, 2, 2, 0, 1];

describe.each(devices)('Python nn.Module on %s', (name) => {
  const device = name === 'cpu' ? 'cpu' : 'cuda:0';

  it('trains with the same losses and weights as the TypeScript cell', async () => {
    const py = (await python.run(`${NET}
torch.manual_seed(7)
net = Net().to(${JSON.stringify(device)})
torch.manual_seed(8)
x = torch.rand(8, 1, 8, 8).to(${JSON.stringify(device)})
y = torch.tensor(${JSON.stringify(LABELS)}, device=${JSON.stringify(device)})
opt = torch.optim.Adam(net.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
losses = []
for epoch in range(6):
    opt.zero_grad()
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
{'losses': losses, 'weights': {k: v.reshape(-1).tolist() for k, v in net.state_dict().items()}}
`)) as { losses: number[]; weights: Record<string, number[]> };

    torch.manualSeed(7);
    const net = new TsNet().to(name);
    torch.manualSeed(8);
    const x = torch.rand(8, 1, 8, 8).to(name);
    const y = torch.tensor(LABELS, { dtype: 'int32', device: name });
    const opt = new optim.Adam(net.parameters(), { lr: 0.05 });
    const lossFn = new nn.CrossEntropyLoss();
    const losses: number[] = [];
    for (let epoch = 0; epoch < 6; epoch++) {
      opt.zeroGrad();
      const loss = lossFn(net(x) as Tensor, y) as Tensor;
      loss.backward();
      opt.step();
      losses.push(await loss.item());
    }
    expect(py.losses.length).toBe(6);
    expect(py.losses[5]).toBeLessThan(py.losses[0]);
    py.losses.forEach((l, i) => expect(Math.abs(l - losses[i])).toBeLessThanOrEqual(1e-6));
    const tsState = net.stateDict();
    expect(Object.keys(py.weights)).toEqual(Object.keys(tsState));
    for (const [key, t] of Object.entries(tsState)) {
      const ts = Array.from(await t.data());
      py.weights[key].forEach((v, i) => expect(Math.abs(v - ts[i])).toBeLessThanOrEqual(1e-6));
    }
  });

  it('registers, names, moves, saves and loads like PyTorch', async () => {
    const r = (await python.run(`${NET}
from collections import OrderedDict
net = Net()
p0 = next(net.parameters())
before = str(p0.device)
same = net.to(${JSON.stringify(device)}) is net
after = str(p0.device)
sd = net.state_dict()
other = Net().to(${JSON.stringify(device)})
result = other.load_state_dict(sd)
try:
    other.load_state_dict({'fc.weight': sd['fc.weight']})
    strict_error = None
except RuntimeError as e:
    strict_error = str(e)
net.eval()
modes = [m.training for m in net.modules()]
net.train()
dp = nn.DataParallel(net)
{
  'names': [n for n, _ in net.named_parameters()],
  'gen': type(net.parameters()).__name__, 'before': before, 'after': after,
  'dp_device': str(p0.device),
  'same_param': p0 is next(net.parameters()), 'same': same,
  'sd_type': type(sd).__name__, 'loaded': repr(result),
  'equal': all((sd[k] == v).all().item() if hasattr(sd[k], 'all') else True for k, v in other.state_dict().items()),
  'fc_equal': other.fc.weight.tolist() == net.fc.weight.tolist(),
  'strict_error': strict_error, 'modes': modes, 'train_after': net.training and net.conv1.training,
  'dp_module': dp.module is net, 'dp_ids': dp.device_ids, 'dp_keys': list(dp.state_dict())[:1],
  'n_params': sum(p.numel() for p in net.parameters()),
}
`)) as Record<string, unknown>;
    expect(r.names).toEqual(['scale', 'conv1.weight', 'conv1.bias', 'fc.weight', 'fc.bias']);
    expect(r.gen).toBe('generator');
    expect(r.before).toBe('cpu');
    expect(r.after).toBe(device);
    expect(r.same_param).toBe(true);
    expect(r.same).toBe(true);
    expect(r.sd_type).toBe('OrderedDict');
    expect(r.loaded).toBe('<All keys matched successfully>');
    expect(r.fc_equal).toBe(true);
    expect(r.strict_error).toBe(
      'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "scale", "conv1.weight", "conv1.bias", "fc.bias". ',
    );
    expect(r.modes).toEqual([false, false, false, false, false]);
    expect(r.train_after).toBe(true);
    expect(r.dp_module).toBe(true);
    expect(r.dp_ids).toEqual(devices.length > 1 ? [0] : []);
    // With one GPU, PyTorch's DataParallel puts the module there at once.
    expect(r.dp_device).toBe(devices.length > 1 ? 'cuda:0' : device);
    expect(r.dp_keys).toEqual(['module.scale']);
    expect(r.n_params).toBe(1 + 4 * 9 + 4 + 36 * 5 + 5);
  });

  it("summary(input_shape) prints the chapter's torchsummary table", async () => {
    const printed = await python.output(`
import torch, torchkeras
from torch import nn
class CnnModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Conv2d(in_channels=1,out_channels=32,kernel_size = 3),
            nn.MaxPool2d(kernel_size = 2,stride = 2),
            nn.Conv2d(in_channels=32,out_channels=64,kernel_size = 5),
            nn.MaxPool2d(kernel_size = 2,stride = 2),
            nn.Dropout2d(p = 0.1),
            nn.AdaptiveMaxPool2d((1,1)),
            nn.Flatten(),
            nn.Linear(64,32),
            nn.ReLU(),
            nn.Linear(32,10)]
        )
    def forward(self,x):
        for layer in self.layers:
            x = layer(x)
        return x
net = CnnModel().to(${JSON.stringify(device)})
torchkeras.summary(net, input_shape=(1,32,32))
`);
    // The chapter's printout (../shared/seeds, 6-3 with torchkeras.Model(net).summary), whose
    // spacing the seed text collapsed: compared token by token.
    const chapter = `----------------------------------------------------------------
Layer (type) Output Shape Param #
================================================================
Conv2d-1 [-1, 32, 30, 30] 320
MaxPool2d-2 [-1, 32, 15, 15] 0
Conv2d-3 [-1, 64, 11, 11] 51,264
MaxPool2d-4 [-1, 64, 5, 5] 0
Dropout2d-5 [-1, 64, 5, 5] 0
AdaptiveMaxPool2d-6 [-1, 64, 1, 1] 0
Flatten-7 [-1, 64] 0
Linear-8 [-1, 32] 2,080
ReLU-9 [-1, 32] 0
Linear-10 [-1, 10] 330
================================================================
Total params: 53,994
Trainable params: 53,994
Non-trainable params: 0
----------------------------------------------------------------
Input size (MB): 0.003906
Forward/backward pass size (MB): 0.359695
Params size (MB): 0.205971
Estimated Total Size (MB): 0.569572
----------------------------------------------------------------`;
    expect(printed.trim().split(/\s+/)).toEqual(chapter.split(/\s+/));
  });

  it.skipIf(noTorch !== null)('print(net) is what real PyTorch prints', async () => {
    const program = `${NET}
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Dropout(0.25))
class Big(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = Net()
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(5, 2, bias=False), nn.Softmax(dim=1))
        self.conv = nn.Conv2d(1, 32, kernel_size=(3, 3), stride=2, padding=1)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.emb = nn.Embedding(10, 4)
        self.loss = nn.CrossEntropyLoss()
        self.mse = nn.MSELoss()
text = [repr(net), repr(Big())]
`;
    const ours = await python.run(`${program}\ntext`);
    const theirs = runRealTorch(`${program}\nprint(json.dumps(text))`);
    expect(ours).toEqual(theirs);
  });
});
