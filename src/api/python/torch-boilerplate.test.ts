/**
 * The lines at the top of real notebooks, in Python: torch.backends flags, the default dtype,
 * determinism, threads, torch.version, seeding and print options (reprs exactly as real PyTorch
 * prints them), autocast and GradScaler (training with them equals training without, and both
 * equal real PyTorch's, whose CPU build disables them as ours always does), tqdm's submodules and
 * SummaryWriter drawing the notebook's chart. The differential program is
 * testing/torch_boilerplate_program.py; real PyTorch is Debian's python3-torch 1.13 (CPU).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { setMetricListener } from '../../engine/metrics';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { setDefaultObservers } from '../../engine/training';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import { setPostfixListener } from '../../kernel/outputs/progress';
import { series } from '../../kernel/testing/charts';
import {
  CHART_MIME,
  type CellOutput,
  type ChartData,
  type MimeBundle,
} from '../../kernel/protocol';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_boilerplate_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
let sink: OutputSink | null = null;
const python = await startPython(createIoGlobals({ current: () => sink }, {}));

afterAll(() => {
  setMetricListener(null);
  setPostfixListener(null);
  setDefaultObservers(null);
});

const rand = rng(36);
const uniform = (low: number, high: number) => low + (high - low) * rand();
const INPUT = {
  w: Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => uniform(-0.5, 0.5))),
  b: Array.from({ length: 3 }, () => uniform(-0.2, 0.2)),
  x: Array.from({ length: 6 }, () => Array.from({ length: 4 }, () => uniform(-2, 2))),
  y: [0, 2, 1, 1, 0, 2],
};

interface Trained {
  losses: number[];
  weight: number[];
  bias: number[];
  weight_grad: number[];
  scaler?: [number, boolean, Record<string, unknown>];
}
interface Result {
  flags: Record<string, unknown>;
  errors: Record<string, string>;
  reprs: string[];
  plain: Trained;
  mixed: Trained;
  decorated: number[];
  inside_autocast: boolean;
}

describeAgainstRealTorch<Result>(
  'torch-boilerplate.test.ts',
  'notebook boilerplate against real PyTorch (Debian python3-torch)',
  'flags, reprs under set_printoptions, and GradScaler training agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    expect(ours.flags).toEqual(real.flags);
    expect(ours.errors).toEqual(real.errors);
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.decorated).toEqual(real.decorated);
    expect(ours.inside_autocast).toBe(real.inside_autocast);
    expect(ours.mixed.scaler).toEqual(real.mixed.scaler);
    for (const run of ['plain', 'mixed'] as const) {
      for (const key of ['losses', 'weight', 'bias', 'weight_grad'] as const) {
        expectNear(ours[run][key], real[run][key], 1e-4, `${run} ${key}`);
      }
    }
    // With the scaler the run is the plain run, value for value.
    expect(ours.mixed.weight).toEqual(ours.plain.weight);
    expect(ours.mixed.losses).toEqual(ours.plain.losses);
  },
);

/** Runs a cell into its own sink; returns its charts as the page ends up showing them. */
async function cell(code: string): Promise<{ charts: ChartData[]; result: unknown }> {
  const outputs: CellOutput[] = [];
  const updates = new Map<string, MimeBundle>();
  sink = new OutputSink({
    outputs: (o) => outputs.push(...o),
    updateDisplay: (id, data) => updates.set(id, data),
  });
  const result = await python.run(code);
  await sink.close();
  sink = null;
  const charts = outputs.flatMap((o) =>
    o.kind === 'display' && CHART_MIME in o.data
      ? [(updates.get(o.displayId ?? '') ?? o.data)[CHART_MIME] as ChartData]
      : [],
  );
  return { charts, result };
}

describe('notebook boilerplate beyond PyTorch itself', () => {
  it('tqdm.auto, tqdm.notebook and tqdm.std are the notebook bar', async () => {
    const r = (
      await cell(`
import tqdm
from tqdm.auto import tqdm as auto_tqdm, trange
from tqdm.notebook import tqdm as notebook_tqdm, tnrange
from tqdm.std import tqdm as std_tqdm
seen = [i for i in auto_tqdm(range(3), desc="auto")] + list(trange(2)) + list(notebook_tqdm([7]))
[seen, auto_tqdm is tqdm.tqdm and notebook_tqdm is tqdm.tqdm and std_tqdm is tqdm.tqdm, tnrange is tqdm.trange]
`)
    ).result;
    expect(r).toEqual([[0, 1, 2, 0, 1, 7], true, true]);
  });

  it('a 2024-style preamble runs: seeding helper, device pick, compile, matmul precision, autograd names', async () => {
    const r = (
      await cell(`
import os, random
import torch
import torch.backends.cudnn as cudnn
from torch.autograd import Variable

def seed_everything(seed=42):
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    cudnn.deterministic = True
    cudnn.benchmark = False

seed_everything(7)
a = torch.rand(3)
seed_everything(7)
same = torch.equal(a, torch.rand(3))
device = torch.device("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu")
torch.set_float32_matmul_precision("high")
torch.autograd.set_detect_anomaly(True)
net = torch.nn.Linear(3, 2)
compiled = torch.compile(net)
@torch.compile
def double(t):
    return t * 2
x = Variable(torch.ones(1, 3), requires_grad=True)
torch.autograd.backward(compiled(x).sum())
errors = []
for bad in (lambda: torch.set_float32_matmul_precision("low"), lambda: torch.autograd.grad(x.sum(), x)):
    try:
        bad()
    except (RuntimeError, NotImplementedError) as e:
        errors.append(type(e).__name__ + ": " + str(e))
[same, device.type in ("cuda", "cpu"), torch.get_float32_matmul_precision(),
 torch.autograd.is_anomaly_enabled(), compiled is net, double(torch.tensor([2.0])).tolist(),
 x.grad.tolist(), cudnn.is_available(), cudnn.version(), errors]
`)
    ).result;
    expect(r).toEqual([
      true,
      true,
      'high',
      true,
      true,
      [4],
      [[expect.any(Number), expect.any(Number), expect.any(Number)]],
      false,
      undefined,
      [
        "RuntimeError: set_float32_matmul_precision: expected one of ('highest', 'high', 'medium'), got 'low'",
        "NotImplementedError: torch.autograd.grad is not available here yet: call loss.backward() and read each input's .grad",
      ],
    ]);
  });

  it('SummaryWriter.add_scalar and add_scalars draw the live chart; other add_* draw nothing', async () => {
    const { charts } = await cell(`
import torch
from torch.utils.tensorboard import SummaryWriter
writer = SummaryWriter()
for step in range(4):
    writer.add_scalar("Loss/train", torch.tensor(1.0 / (step + 1)), step * 10)
    writer.add_scalars("acc", {"train": 0.5 + step / 10, "val": 0.4 + step / 20}, global_step=step * 10)
    writer.add_histogram("weights", torch.rand(5), step)
writer.add_scalar("lr", 0.1)
writer.add_scalar("lr", 0.05)
writer.add_text("note", "hello")
writer.flush()
writer.close()
assert writer.get_logdir().startswith("runs")
`);
    expect(charts).toHaveLength(1);
    const chart = charts[0];
    expect(series(chart, 'Loss/train').map(([x]) => x)).toEqual([0, 10, 20, 30]);
    series(chart, 'Loss/train').forEach(([, y], i) => expect(y).toBeCloseTo(1 / (i + 1), 6));
    expect(series(chart, 'train')).toEqual([0, 1, 2, 3].map((s) => [s * 10, 0.5 + s / 10]));
    expect(series(chart, 'val')).toEqual([0, 1, 2, 3].map((s) => [s * 10, 0.4 + s / 20]));
    expect(series(chart, 'lr')).toEqual([
      [0, 0.1],
      [1, 0.05],
    ]);
    const panels = chart.panels.map((p) => [p.title, p.series.map((s) => s.name)]);
    expect(panels).toEqual([
      ['Loss/train', ['Loss/train']],
      ['acc', ['train', 'val']],
      ['lr', ['lr']],
    ]);
    // A later cell logging to the same writer shows the whole run so far in its own chart.
    const next = await cell('writer.add_scalar("lr", 0.025)');
    expect(next.charts).toHaveLength(1);
    expect(series(next.charts[0], 'lr')).toEqual([
      [0, 0.1],
      [1, 0.05],
      [2, 0.025],
    ]);
    expect(series(next.charts[0], 'Loss/train')).toEqual(series(chart, 'Loss/train'));
    await expect(python.run('writer.add_scalar("x", "high")')).rejects.toThrow(
      /add_scalar: scalar_value must be a number/,
    );
    await expect(python.run('writer.add_nothing')).rejects.toThrow(/no attribute 'add_nothing'/);
  });
});
