/**
 * nn.DataParallel over the newer modules on two logical GPUs: a Python model of an LSTM
 * (batch_first), MultiheadAttention and a TransformerEncoderLayer gives the outputs, input
 * gradients and parameter gradients of the same model on one device (within float32 rounding),
 * before and after an optimizer step (the replicas pick up the update).
 */
import { describe, expect, it } from 'vitest';
import { gpuDevices } from '../../engine';
import { initTwoLogicalGpus } from '../../engine/testing/two-gpus';
import { startPython } from './testing/pyodide';

await initTwoLogicalGpus();
const python = await startPython();

const PROGRAM = `
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6, batch_first=True)
        self.attn = nn.MultiheadAttention(6, 2, batch_first=True)
        self.enc = nn.TransformerEncoderLayer(6, 2, 12, dropout=0.0, batch_first=True)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        h, _ = self.lstm(x)
        a, _ = self.attn(h, h, h)
        return self.fc(self.enc(a + h))


def flat(t):
    return t.detach().reshape(-1).tolist()


def run(parallel):
    torch.manual_seed(5)
    net = Net()
    model = nn.DataParallel(net) if parallel else net.to("cuda:0")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(6)
    x = torch.randn(4, 5, 4).to("cuda:0").requires_grad_()
    out = model(x)
    (out * out).sum().backward()
    grads = {n: flat(p.grad) for n, p in net.named_parameters()}
    x_grad = flat(x.grad)
    opt.step()
    with torch.no_grad():
        out2 = model(x)
    return {"out": flat(out), "x_grad": x_grad, "grads": grads, "out2": flat(out2),
            "peak1": torch.cuda.max_memory_allocated(1), "device": str(out.device)}


{"dp": run(True), "one": run(False)}
`;

/** BatchNorm under DataParallel as PyTorch: each replica normalises its own chunk with that
 * chunk's statistics, and the module's running statistics are those of device_ids[0]'s chunk
 * (its buffers are the module's; the other replicas update copies). A loop keeps memory flat. */
const BATCHNORM = `
def bn_run():
    torch.manual_seed(7)
    x = (torch.randn(6, 4, 3) * 2 + 1).to("cuda:0")
    dp = nn.DataParallel(nn.BatchNorm1d(4))
    out = dp(x)
    halves = [nn.BatchNorm1d(4).to("cuda:0") for _ in range(2)]
    expected = torch.cat([halves[0](x[:3]), halves[1](x[3:])])
    return {"out": flat(out), "expected": flat(expected),
            "mean": flat(dp.module.running_mean), "mean0": flat(halves[0].running_mean),
            "var": flat(dp.module.running_var), "var0": flat(halves[0].running_var)}


def loop_memory():
    import gc

    gc.collect()
    torch.manual_seed(8)
    net = nn.DataParallel(Net())
    opt = torch.optim.AdamW(net.parameters(), lr=0.01)
    x = torch.randn(4, 5, 4).to("cuda:0")
    y = torch.randint(0, 3, (4, 5)).to("cuda:0")
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    marks = []
    for step in range(16):
        opt.zero_grad()
        loss = loss_fn(net(x).reshape(20, 3), y.reshape(20))
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        loss.item()
        if step >= 2:
            marks.append([torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1)])
    return marks


{"bn": bn_run(), "marks": loop_memory()}
`;

type Result = Record<string, unknown>;

function expectNear(actual: number[], expected: number[], what: string): void {
  expect(actual.length, what).toBe(expected.length);
  const scale = Math.max(1e-3, ...expected.map(Math.abs));
  actual.forEach((v, i) => {
    if (Math.abs(v - expected[i]) > 1e-4 * scale) {
      expect.fail(`${what}[${i}]: ${v} vs ${expected[i]} (one device)`);
    }
  });
}

describe.skipIf(gpuDevices().length < 2)('nn.DataParallel over LSTM and attention', () => {
  it('gives the outputs and gradients of one device', async () => {
    const r = (await python.run(PROGRAM)) as Record<'dp' | 'one', Result>;
    const { dp, one } = r;
    expect(dp.device).toBe('cuda:0');
    expect(dp.peak1 as number).toBeGreaterThan(0); // half the batch ran on gpu:1
    expectNear(dp.out as number[], one.out as number[], 'output');
    expectNear(dp.x_grad as number[], one.x_grad as number[], 'x.grad');
    const grads = dp.grads as Record<string, number[]>;
    const names = Object.keys(one.grads as Record<string, number[]>);
    expect(Object.keys(grads)).toEqual(names);
    expect(names).toContain('lstm.weight_hh_l0');
    expect(names).toContain('attn.in_proj_weight');
    for (const [name, values] of Object.entries(one.grads as Record<string, number[]>)) {
      expectNear(grads[name], values, `${name}.grad`);
    }
    expectNear(dp.out2 as number[], one.out2 as number[], 'output after a step');
  }, 120_000);

  it("BatchNorm normalises each chunk and keeps device 0's statistics; a loop stays flat", async () => {
    const r = (await python.run(BATCHNORM)) as { bn: Record<string, number[]>; marks: number[][] };
    expectNear(r.bn.out, r.bn.expected, 'output');
    expectNear(r.bn.mean, r.bn.mean0, 'running_mean');
    expectNear(r.bn.var, r.bn.var0, 'running_var');
    // Steps 2-15: the high mark of the last four steps against that of steps 2-5.
    const high = (marks: number[][], gpu: number) => Math.max(...marks.map((m) => m[gpu]));
    const early = r.marks.slice(0, 4);
    const late = r.marks.slice(-4);
    expect(early[0][1]).toBeGreaterThan(0);
    // No growth. (Highs, not single readings: what a step drops waits for V8's collector, which
    // takes it at moments of its own — autograd no longer keeps an op's output reachable through
    // its backward closure — so one reading may see two steps of garbage and another none; a
    // window's high sees the same steady state. A leak of even one float a step would show as 40
    // bytes over the ten steps between the windows.)
    [0, 1].forEach((gpu) => expect(high(late, gpu)).toBeLessThanOrEqual(high(early, gpu) + 8));
  }, 120_000);
});
