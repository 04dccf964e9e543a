/**
 * Issue 20's check for real (the export as the page asks for it, `export_to_store`): a small DataParallel notebook trains in Pyodide over our engine on
 * two logical GPUs; its export runs under Debian's PyTorch (1.13, CPU) as two
 * DistributedDataParallel processes over gloo on the loopback, launched with the plain
 * MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE environment, from the exported weights. Final loss and
 * weights must agree within 1e-4.
 *
 * Why the two runs take the same steps: the loader has shuffle=False and a global batch of 8 over
 * 32 samples. In the notebook, step k's batch is samples 8k..8k+7 and DataParallel splits it in
 * contiguous halves, computing the mean loss over all 8 on the gathered output. In train.py the
 * DistributedSampler (shuffle=False) gives rank r the samples r, r+2, r+4, … and the per-process
 * batch is 4, so step k has rank 0 on 8k, 8k+2, 8k+4, 8k+6 and rank 1 on 8k+1, …, 8k+7: the same 8
 * samples. Each rank's loss is the mean over its 4, and DDP averages the gradients over ranks, so
 * the update is the gradient of the mean over the 8, as in the notebook. The final loss is
 * computed on all 32 samples by every process, so rank 0's printout is comparable.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gpuDevices } from '../../engine';
import { getTensorStore } from '../../engine/serialization';
import { rng } from '../../engine/testing/harness';
import { initTwoLogicalGpus } from '../../engine/testing/two-gpus';
import { startPython } from './testing/pyodide';
import { realTorchMissing, runRealTorch } from './testing/real-torch';

await initTwoLogicalGpus();
const python = await startPython();
const noTorch = realTorchMissing();

const rand = rng(2020);
const rows = (n: number, m: number, scale: number) =>
  Array.from({ length: n }, () => Array.from({ length: m }, () => (rand() * 2 - 1) * scale));
const X = rows(32, 3, 1);
const Y = X.map(([a, b, c]) => [Math.sin(1.5 * a - b) + 0.5 * c, a * b - 0.25]);

const CELLS = [
  `!pip install torch
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
X = torch.tensor(${JSON.stringify(X)})
Y = torch.tensor(${JSON.stringify(Y)})
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(7)
net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
model = nn.DataParallel(net.to(device))`,
  `loader = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=False)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
loss_fn = nn.MSELoss()
for epoch in range(3):
    for x, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(x.to(device)), y.to(device))
        loss.backward()
        opt.step()
    print("epoch", epoch, loss.item())
with torch.no_grad():
    final = loss_fn(model(X.to(device)), Y.to(device)).item()
print("final loss", repr(final))
torch.save(model.state_dict(), "final.pt")`,
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function runRank(dir: string, rank: number, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['train.py'], {
      cwd: dir,
      env: {
        ...process.env,
        MASTER_ADDR: '127.0.0.1',
        MASTER_PORT: String(port),
        RANK: String(rank),
        WORLD_SIZE: '2',
        OMP_NUM_THREADS: '1',
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`rank ${rank} exited with ${code}:\n${err}\n${out}`));
    });
  });
}

describe.skipIf(noTorch !== null)(
  `train.py as two DDP processes on gloo${noTorch ? ` (skipped: ${noTorch})` : ''}`,
  () => {
    it('continues from the exported weights and matches the browser within 1e-4', async () => {
      // The first cell as the kernel runs it: the !pip line is the kernel's note, not Python.
      await python.run(CELLS[0].replace(/^!.*$/m, ''));
      await python.run(`
import json
from gpubook.export_ddp import export_to_store
export_to_store(json.dumps(json.loads(${JSON.stringify(JSON.stringify(CELLS))})), globals(), '"ddp test"')
`);
      const store = getTensorStore();
      const reportBytes = await store.get('.export-ddp/report.json');
      const weights = await store.get('.export-ddp/weights.safetensors');
      if (!reportBytes || !weights) throw new Error('the export left no report or weights');
      const r = JSON.parse(new TextDecoder().decode(reportBytes)) as {
        script: string;
        model: { name: string };
        dropped: { code: string }[];
      };
      expect(r.model.name).toBe('model');
      // With WebGPU (SwiftShader here) the batch really is split over two logical GPUs; without
      // it DataParallel has no device to split over and runs the module, the same arithmetic.
      if (gpuDevices().length >= 2) expect(await python.run('model.device_ids')).toEqual([0, 1]);
      expect(r.dropped.map((d) => d.code)).toEqual(['!pip install torch']);

      const weightsNow = '{k: v.reshape(-1).tolist() for k, v in net.state_dict().items()}';
      const initial = (await python.run(weightsNow)) as Record<string, number[]>;
      const printed = await python.output(CELLS[1]);
      const browserLoss = Number(/final loss (\S+)/.exec(printed)?.[1]);
      const browserWeights = (await python.run(weightsNow)) as Record<string, number[]>;
      // Training moved the weights (so matching them says something).
      const moved = Object.keys(initial).map((k) =>
        Math.max(...initial[k].map((v, i) => Math.abs(v - browserWeights[k][i]))),
      );
      expect(Math.max(...moved)).toBeGreaterThan(1e-2);

      const dir = mkdtempSync(join(tmpdir(), 'gpubook-ddp-'));
      try {
        writeFileSync(join(dir, 'train.py'), r.script);
        writeFileSync(join(dir, 'weights.safetensors'), weights);
        const port = await freePort();
        const [out0, out1] = await Promise.all([runRank(dir, 0, port), runRank(dir, 1, port)]);
        expect(out0).toContain('loaded weights.safetensors');
        // Printing is rank 0's.
        expect(out1).toBe('');
        const torchLoss = Number(/final loss (\S+)/.exec(out0)?.[1]);
        expect(Number.isFinite(torchLoss)).toBe(true);
        expect(Math.abs(torchLoss - browserLoss)).toBeLessThan(1e-4);

        const torchWeights = runRealTorch(
          'print(json.dumps({k: v.reshape(-1).tolist() for k, v in torch.load(INPUT).items()}))',
          join(dir, 'final.pt'),
        ) as Record<string, number[]>;
        expect(Object.keys(torchWeights)).toEqual(Object.keys(browserWeights));
        for (const [key, values] of Object.entries(browserWeights)) {
          values.forEach((v, i) => expect(Math.abs(torchWeights[key][i] - v)).toBeLessThan(1e-4));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
