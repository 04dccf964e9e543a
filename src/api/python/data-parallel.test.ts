/**
 * nn.DataParallel of a Python module on two logical GPUs: each step's forward runs on both
 * devices, and training gives the losses and weights of the same module on one device.
 */
import { describe, expect, it } from 'vitest';
import { gpuDevices } from '../../engine';
import { initTwoLogicalGpus } from '../../engine/testing/two-gpus';
import { startPython } from './testing/pyodide';

await initTwoLogicalGpus();
const python = await startPython();

describe.skipIf(gpuDevices().length < 2)('nn.DataParallel over two logical GPUs', () => {
  it('trains a Python module like one device does', async () => {
    const r = (await python.run(`
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 3)
        self.scale = nn.Parameter(torch.ones(3) * 0.5)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * self.scale

def run(parallel):
    torch.manual_seed(5)
    net = Net()
    model = nn.DataParallel(net) if parallel else net.to('cuda:0')
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.MSELoss()
    torch.manual_seed(6)
    x = (torch.rand(11, 6) + 0.1).to('cuda:0')
    y = torch.rand(11, 3).to('cuda:0')
    losses, peak1 = [], 0
    for step in range(5):
        opt.zero_grad()
        out = model(x)
        peak1 = max(peak1, torch.cuda.memory_allocated(1))
        loss = loss_fn(out, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    weights = {k: v.reshape(-1).tolist() for k, v in net.state_dict().items()}
    ids = model.device_ids if parallel else None
    keys = list(model.state_dict())[:2] if parallel else None
    return {'losses': losses, 'weights': weights, 'peak1': peak1, 'ids': ids, 'keys': keys,
            'out_device': str(out.device)}

{'dp': run(True), 'one': run(False)}
`)) as Record<'dp' | 'one', Record<string, unknown>>;
    const dp = r.dp;
    const one = r.one;
    expect(dp.ids).toEqual([0, 1]);
    expect(dp.keys).toEqual(['module.scale', 'module.fc1.weight']);
    expect(dp.out_device).toBe('cuda:0');
    // Half the batch ran on gpu:1.
    expect(dp.peak1 as number).toBeGreaterThan(0);
    const losses = dp.losses as number[];
    expect(losses[4]).toBeLessThan(losses[0]);
    losses.forEach((l, i) => expect(l).toBeCloseTo((one.losses as number[])[i], 5));
    const w = dp.weights as Record<string, number[]>;
    for (const [key, values] of Object.entries(one.weights as Record<string, number[]>)) {
      values.forEach((v, i) => expect(w[key][i]).toBeCloseTo(v, 5));
    }
  });
});
