/**
 * PyTorch's tensors tutorial (tensorqs_tutorial.py) and the GPU chapter (seed 004) without their
 * numpy lines, under our `torch` and real PyTorch (Debian's python3-torch, 1.13, CPU): the same
 * printouts (random values masked where the tutorial prints torch.rand's), the same values on
 * seeded random data, and device printouts as each side's GPUs say. The program is
 * testing/tensorqs_program.py.
 */
import { describe, expect, it } from 'vitest';
import { gpuDevices } from '../../engine';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/tensorqs_program.py?raw';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(35);
const matrix = (rows: number, cols: number, next: () => number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, next));
const uniform = (low: number, high: number) => () => low + (high - low) * rand();
const int = (low: number, high: number) => () => Math.floor(low + (high - low) * rand());
const INPUT = {
  data: matrix(2, 2, int(-9, 10)),
  matrix: matrix(4, 4, uniform(-3, 3)),
  a: matrix(5, 7, uniform(-1, 1)),
  b: matrix(7, 3, uniform(-1, 1)),
  x: matrix(12, 2, uniform(0, 1)),
  noise: matrix(12, 1, uniform(-2, 2)),
  w: matrix(1, 2, uniform(-1, 1)),
  b0: [[0.25]],
};

interface Result {
  device: string;
  tutorial: string;
  data: string;
  chapter: string;
  out: string;
  values: Record<string, number[]>;
}

/** torch.rand's values in a printout (4 decimals in [0, 1)), masked. */
const RANDOM = /0\.\d{4}/g;

/** What the chapter's device lines print with `gpus` GPUs (PyTorch's rules; 0 or 1 here). */
function chapterPrintout(gpus: number): string {
  const cuda = gpus > 0 ? 'True' : 'False';
  const device = gpus > 0 ? 'cuda:0' : 'cpu';
  const ids = `[${Array.from({ length: gpus }, (_, i) => i).join(', ')}]`;
  return [
    `if_cuda= ${cuda} gpu_count= ${gpus}`,
    `${device} ${cuda} cpu`,
    'False',
    `${cuda} ${device}`,
    `${ids} ${device}`,
    '<All keys matched successfully>',
    'True',
    'torch.Size([5, 3]) True',
    'torch.Size([12, 1])',
    'torch.Size([1, 2]) [[0.0]]',
    `if on cuda: ${cuda}`,
    '',
  ].join('\n');
}

describeAgainstRealTorch<Result>(
  'tensorqs.test.ts',
  'the tensors tutorial and the GPU chapter against real PyTorch (Debian python3-torch)',
  'print and compute the same on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    // The tutorial verbatim: the same text but torch.rand's values, which lie in [0, 1).
    expect(ours.tutorial.replace(RANDOM, '0.####')).toBe(real.tutorial.replace(RANDOM, '0.####'));
    const drawn = [...ours.tutorial.matchAll(RANDOM)].map((m) => Number(m[0]));
    expect(drawn.length).toBe(4 + 6); // x_rand (2×2) and rand_tensor (2×3);
    expect(ours.tutorial).toContain("12.0 <class 'float'>");

    // On random data, on each device: printouts of copied values are PyTorch's exactly.
    const onGpu = ours.device.startsWith('cuda');
    const suffix = ", device='cuda:0')";
    if (onGpu) expect(ours.data.split(suffix).length - 1).toBe(6);
    expect(onGpu ? ours.data.replaceAll(suffix, ')') : ours.data).toBe(real.data);
    expect(Object.keys(ours.values).sort()).toEqual(Object.keys(real.values).sort());
    for (const [name, want] of Object.entries(real.values)) {
      if (name === 'x_rand') continue; // torch.rand_like's draws: checked for range below
      expectNear(ours.values[name], want, name === 'losses' || name === 'w' ? 2e-5 : 1e-6, name);
    }
    for (const v of ours.values.x_rand) expect(v >= 0 && v < 1).toBe(true);

    // out='s rules: the same errors, casts, resizing (and its warning) and writes through views.
    expect(ours.out).toBe(real.out);
    expect(real.out).toContain('UserWarning An output with one or more elements was resized');

    // The chapter's device lines follow each side's GPUs (real PyTorch here has none).
    expect(real.chapter).toBe(chapterPrintout(0));
    expect(ours.chapter).toBe(chapterPrintout(gpuDevices().length));
  },
);

/**
 * Newer names the tutorial and the chapter use that real PyTorch 1.13 lacks: torch.accelerator
 * (PyTorch 2.6+; the tutorial's current version moves its tensor with it) and accelerate's
 * Accelerator (the chapter prints its device), checked against their documented answers for the
 * GPUs this machine has.
 */
describe('torch.accelerator and accelerate.Accelerator', () => {
  it('answer for the GPUs here, and prepare moves models and batches', async () => {
    const gpus = gpuDevices().length;
    const cuda = gpus > 0 ? 'True' : 'False';
    const printed = await python.output(`
import accelerate
import torch
from torch import nn
print(torch.accelerator.is_available(), torch.accelerator.device_count(), torch.accelerator.current_device_index())
print(repr(torch.accelerator.current_accelerator()), torch.accelerator.current_accelerator(check_available=True))
tensor = torch.ones(2)
if torch.accelerator.is_available():
    tensor = tensor.to(torch.accelerator.current_accelerator())
print(tensor.device)
accelerator = accelerate.Accelerator()
print(accelerator.device, accelerate.Accelerator(cpu=True).device, accelerator.num_processes)
net = nn.Linear(2, 1)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
ds = torch.utils.data.TensorDataset(torch.rand(3, 2), torch.rand(3, 1))
net, optimizer, dl = accelerator.prepare(net, optimizer, torch.utils.data.DataLoader(ds, batch_size=2))
before = net.weight.detach().clone()
for x, y in dl:
    print(x.device, y.device, x.shape[0])
    accelerator.backward(nn.MSELoss()(net(x), y))
    optimizer.step()
    optimizer.zero_grad()
print(net.weight.device, len(dl), not torch.equal(net.weight.detach(), before))
try:
    accelerate.Accelerator(mixed_precision="fp16")
except ValueError as error:
    print("ValueError", "float32 only" in str(error))
`);
    const device = gpus > 0 ? 'cuda:0' : 'cpu';
    expect(printed).toBe(
      [
        `${cuda} ${gpus} 0`,
        `device(type='cuda') ${gpus > 0 ? 'cuda' : 'None'}`,
        device,
        `${gpus > 0 ? 'cuda' : 'cpu'} cpu 1`,
        `${device} ${device} 2`,
        `${device} ${device} 1`,
        `${device} 2 True`,
        'ValueError True',
        '',
      ].join('\n'),
    );
  });
});
