/**
 * Engine errors arrive in Python as the exceptions PyTorch raises, with the engine's messages
 * (and the interpreter stays usable); torch.cuda, torch.save/torch.load and manual_seed.
 */
import { describe, expect, it } from 'vitest';
import { gpuDevices, setMemoryLimit } from '../../engine';
import { testDevices } from '../../engine/testing/devices';
import { torch } from '../torch';
import { startPython } from './testing/pyodide';

const devices = await testDevices();
const python = await startPython();

/** Runs `expr` in Python and returns [exception type, message], or null if nothing was raised. */
async function raised(expr: string): Promise<[string, string] | null> {
  return (await python.run(`
import torch
def _raised():
    try:
        ${expr}
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None
_raised()
`)) as [string, string] | null;
}

/** The message the engine itself throws for the same call in TypeScript. */
function engineMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the engine raised nothing');
}

describe('engine errors in Python', () => {
  it('shape errors are RuntimeErrors with the engine message', async () => {
    expect(await raised('torch.rand(2, 3) @ torch.rand(2, 3)')).toEqual([
      'RuntimeError',
      engineMessage(() => torch.rand(2, 3).matmul(torch.rand(2, 3))),
    ]);
    expect(await raised('torch.rand(2, 3) + torch.rand(4, 3)')).toEqual([
      'RuntimeError',
      engineMessage(() => torch.rand(2, 3).add(torch.rand(4, 3))),
    ]);
    expect(await raised('torch.rand(2, 3).view(4, 2)')).toEqual([
      'RuntimeError',
      engineMessage(() => torch.rand(2, 3).view(4, 2)),
    ]);
    expect(await raised('torch.rand(2, 3).item()')).toEqual([
      'RuntimeError',
      'a Tensor with 6 elements cannot be converted to Scalar',
    ]);
    expect(await raised('torch.rand(2, 3)[5]')).toEqual([
      'IndexError',
      'index 5 is out of bounds for dimension 0 with size 2',
    ]);
    // The engine's message, with its GPUs named as PyTorch names them (gpu:N → cuda:N).
    const missing = engineMessage(() => torch.rand([2], { device: 'cuda:7' }));
    expect(missing).toMatch(/^gpu:7 does not exist/);
    expect(await raised("torch.rand(2, device='cuda:7')")).toEqual([
      'RuntimeError',
      missing.replace(/\bgpu:(\d+)/g, 'cuda:$1'),
    ]);
  });

  it.skipIf(devices.length < 2)(
    "a device's memory limit raises RuntimeError and leaves Python usable",
    async () => {
      const gpu = gpuDevices()[0];
      setMemoryLimit(gpu, 1 << 20);
      try {
        const [type, message] = (await raised("big = torch.zeros(512, 1024, device='cuda:0')")) as [
          string,
          string,
        ];
        expect(type).toBe('RuntimeError');
        // The engine's message, with the device named as PyTorch names it.
        expect(message).toContain('cuda:0');
        expect(message).not.toContain('gpu:0');
        expect(message).toContain(String(512 * 1024 * 4));
        expect(await python.run("torch.ones(4, device='cuda:0').sum().item()")).toBe(4);
      } finally {
        setMemoryLimit(gpu, null);
      }
      expect(await python.run("torch.zeros(512, 1024, device='cuda:0').shape == (512, 1024)")).toBe(
        true,
      );
    },
  );
});

describe('torch.cuda, save/load and seeds', () => {
  it('torch.cuda reports the engine devices', async () => {
    const r = (await python.run(`
import torch
[torch.cuda.is_available(), torch.cuda.device_count(),
 torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
 torch.cuda.memory_allocated(), torch.cuda.synchronize(), torch.cuda.empty_cache()]
`)) as unknown[];
    const gpus = gpuDevices();
    expect(r[0]).toBe(gpus.length > 0);
    expect(r[1]).toBe(gpus.length);
    expect(r[2]).toBe(gpus.length > 0 ? gpus[0].info.label : undefined);
    expect(typeof r[3]).toBe('number');
  });

  it('torch.save and torch.load round-trip a state dict', async () => {
    const r = (await python.run(`
import torch
from torch import nn
torch.manual_seed(3)
net = nn.Linear(3, 2)
torch.save(net.state_dict(), 'model.pt')
other = nn.Linear(3, 2)
loaded = torch.load('model.pt')
[type(loaded).__name__, list(loaded), repr(other.load_state_dict(loaded)),
 other.weight.tolist() == net.weight.tolist(), other.bias.tolist() == net.bias.tolist(),
 other.weight.tolist() != nn.Linear(3, 2).weight.tolist()]
`)) as unknown[];
    expect(r).toEqual([
      'OrderedDict',
      ['weight', 'bias'],
      '<All keys matched successfully>',
      true,
      true,
      true,
    ]);
  });

  it('torch.manual_seed makes Python draws repeat, and match the TS layer', async () => {
    const [a, b] = (await python.run(`
import torch
torch.manual_seed(11)
a = torch.rand(5).tolist()
torch.manual_seed(11)
[a, torch.rand(5).tolist()]
`)) as number[][];
    expect(a).toEqual(b);
    torch.manualSeed(11);
    expect(Array.from(await torch.rand(5).data())).toEqual(a);
  });
});
