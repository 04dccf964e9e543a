/**
 * What PyTorch users write beyond API.md, composed of engine ops in Python: randint, randperm,
 * linspace, allclose/equal, all/any, item assignment, and torch.optim.lr_scheduler (its rates
 * checked against real PyTorch's).
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { startPython } from './testing/pyodide';
import { realTorchMissing, runRealTorch } from './testing/real-torch';

await testDevices();
const python = await startPython();
const noTorch = realTorchMissing();

describe('more of PyTorch in Python', () => {
  it('randint, randperm, linspace, allclose, equal, all, any', async () => {
    const r = (await python.run(`
import torch
torch.manual_seed(1)
ri = torch.randint(3, 9, (200,))
perm = torch.randperm(10)
a = torch.rand(3, 3) + 0.5
{
  'ri_min': ri.min().item(), 'ri_max': ri.max().item(), 'ri_dtype': str(ri.dtype),
  'ri_distinct': len(set(ri.tolist())), 'ri2': list(torch.randint(5, (2, 3)).shape),
  'perm': sorted(perm.tolist()), 'perm_moved': perm.tolist() != list(range(10)),
  'lin': torch.linspace(-1, 2, 7).tolist(),
  'close': torch.allclose(a, a + 1e-7), 'far': torch.allclose(a, a + 1e-2),
  'equal': torch.equal(a, a.clone()), 'unequal': torch.equal(a, a * 2),
  'all': (a > 0.5).all().item(), 'any': (a > 1.4).any().item() == any(v > 1.4 for row in a.tolist() for v in row),
  'none': (a > 2).any().item(), 'all_dim': (a > 0.9).all(dim=1).tolist(),
  'a': a.tolist(), 'std': a.std().item(), 'var1': a.var(1).tolist(),
  'std0': torch.std(a, 0, unbiased=False).tolist(),
  'legacy': [torch.Tensor([1, 2]).tolist(), str(torch.Tensor([1, 2]).dtype), list(torch.Tensor(2, 3).shape),
             torch.LongTensor([3, 4]).tolist(), str(torch.LongTensor([3, 4]).dtype),
             isinstance(torch.FloatTensor([1.5]), torch.Tensor)],
}
`)) as Record<string, unknown>;
    expect(r.ri_min).toBeGreaterThanOrEqual(3);
    expect(r.ri_max).toBeLessThanOrEqual(8);
    expect(r.ri_dtype).toBe('torch.int64');
    expect(r.ri_distinct).toBe(6);
    expect(r.ri2).toEqual([2, 3]);
    expect(r.perm).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.perm_moved).toBe(true);
    (r.lin as number[]).forEach((v, i) => expect(v).toBeCloseTo(-1 + i * 0.5, 6));
    expect([r.close, r.far, r.equal, r.unequal]).toEqual([true, false, true, false]);
    expect([r.all, r.any, r.none]).toEqual([true, true, false]);
    expect(r.legacy).toEqual([[1, 2], 'torch.float32', [2, 3], [3, 4], 'torch.int64', true]);
    const a = r.a as number[][];
    expect(r.all_dim).toEqual(a.map((row) => row.every((v) => v > 0.9)));
    const variance = (xs: number[], correction: number) => {
      const m = xs.reduce((s, v) => s + v, 0) / xs.length;
      return xs.reduce((s, v) => s + (v - m) ** 2, 0) / (xs.length - correction);
    };
    expect(r.std).toBeCloseTo(Math.sqrt(variance(a.flat(), 1)), 5);
    (r.var1 as number[]).forEach((v, i) => expect(v).toBeCloseTo(variance(a[i], 1), 5));
    (r.std0 as number[]).forEach((v, j) =>
      expect(v).toBeCloseTo(
        Math.sqrt(
          variance(
            a.map((row) => row[j]),
            0,
          ),
        ),
        5,
      ),
    );
  });

  it('nn.init writes PyTorch-bounded values into parameters in place', async () => {
    const r = (await python.run(`
import math, torch
from torch import nn
torch.manual_seed(3)
lin = nn.Linear(300, 200)
w = lin.weight
same = nn.init.xavier_uniform_(w) is w
xb = math.sqrt(6 / 500)
x = [w.abs().max().item(), w.std().item()]
nn.init.kaiming_normal_(w, nonlinearity='relu')
k = [w.mean().item(), w.std().item()]
nn.init.zeros_(lin.bias)
z = lin.bias.abs().sum().item()
nn.init.constant_(lin.bias, 0.25)
c = lin.bias.tolist()
conv = nn.Conv2d(3, 8, 5)
nn.init.kaiming_uniform_(conv.weight, a=math.sqrt(5))
kb = math.sqrt(6 / ((1 + 5) * 75))
{'same': same, 'x': x, 'xb': xb, 'k': k, 'z': z, 'c': c,
 'conv_max': conv.weight.abs().max().item(), 'kb': kb, 'rg': w.requires_grad,
 'gain': [nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh')]}
`)) as Record<string, unknown>;
    const x = r.x as number[];
    const k = r.k as number[];
    expect(r.same).toBe(true);
    expect(x[0]).toBeLessThanOrEqual(r.xb as number);
    expect(x[0]).toBeGreaterThan(0.95 * (r.xb as number));
    expect(x[1]).toBeCloseTo((r.xb as number) / Math.sqrt(3), 2);
    expect(Math.abs(k[0])).toBeLessThan(0.002);
    expect(k[1]).toBeCloseTo(Math.sqrt(2 / 300), 2);
    expect(r.z).toBe(0);
    expect(r.c).toEqual(new Array(200).fill(0.25));
    expect(r.conv_max).toBeLessThanOrEqual(r.kb as number);
    expect(r.conv_max).toBeGreaterThan(0.9 * (r.kb as number));
    expect(r.rg).toBe(true);
    expect(r.gain).toEqual([Math.SQRT2, 5 / 3]);
  });

  it('item assignment writes into the tensor', async () => {
    const r = (await python.run(`
import torch
t = torch.rand(3, 4) + 0.5
before = t.tolist()
t[0] = 5.0
t[:, 1] = torch.tensor([7.0, 8.0, 9.0])
t[2, 3] = -1.5
u = torch.rand(2, 3) + 0.1
u_before = u.tolist()
u[u > 0.6] = 0.0
[before, t.tolist(), u_before, u.tolist()]
`)) as number[][][];
    const [before, after, uBefore, uAfter] = r;
    const expected = before.map((row, i) =>
      row.map((v, j) => (i === 2 && j === 3 ? -1.5 : j === 1 ? 7 + i : i === 0 ? 5 : v)),
    );
    after.flat().forEach((v, k) => expect(v).toBeCloseTo(expected.flat()[k], 6));
    uAfter.flat().forEach((v, k) => {
      const b = uBefore.flat()[k];
      expect(v).toBeCloseTo(b > 0.6 ? 0 : b, 6);
    });
  });

  it.skipIf(noTorch !== null)('lr schedulers give real PyTorch rates', async () => {
    const program = `
import math
import torch
from torch import nn
from torch.optim import lr_scheduler
def rates(make):
    net = nn.Linear(2, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    sched = make(opt)
    out = []
    for epoch in range(7):
        opt.step()
        sched.step()
        out.append(opt.param_groups[0]['lr'])
    return out
result = [
    rates(lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5)),
    rates(lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 4], gamma=0.1)),
    rates(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9)),
    rates(lambda o: lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1))),
    rates(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.01)),
]
`;
    const ours = (await python.run(`${program}\nresult`)) as number[][];
    const theirs = runRealTorch(`${program}\nprint(json.dumps(result))`) as number[][];
    expect(ours.length).toBe(5);
    ours.flat().forEach((v, i) => expect(v).toBeCloseTo(theirs.flat()[i], 9));
  });
});
