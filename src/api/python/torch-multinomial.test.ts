/**
 * torch.multinomial / Tensor.multinomial and torch.randint in Python on every test device, as
 * PyTorch spells them: keyword arguments, shapes and integer dtype, draws that follow the weights
 * (frequencies of many draws; draws are random, so not compared with real PyTorch value by value),
 * and PyTorch's errors for bad arguments.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { startPython } from './testing/pyodide';

const devices = await testDevices();
const python = await startPython();

describe.each(devices.map((d) => [d.name === 'cpu' ? 'cpu' : 'cuda:0'] as const))(
  'torch.multinomial on %s',
  (device) => {
    it('draws as the weights say, with PyTorch keywords, shapes and dtype', async () => {
      const result = (await python.run(`
import torch
torch.manual_seed(0)
w = torch.tensor([[0.0, 1.0, 3.0], [2.0, 0.0, 0.0]], device="${device}")
draws = torch.multinomial(w, num_samples=3000, replacement=True)
counts = [[int((draws[r] == c).sum().item()) for c in range(3)] for r in range(2)]
one = w.multinomial(1)
distinct = torch.multinomial(torch.ones(5, device="${device}"), 5).tolist()
starts = torch.randint(10, 20, (1000,), device="${device}")
[counts, list(draws.shape), list(one.shape), str(one.dtype) in ("torch.int64", "torch.int32"),
 sorted(distinct), int(starts.min().item()), int(starts.max().item())]
`)) as [number[][], number[], number[], boolean, number[], number, number];
      const [counts, shape, oneShape, integer, distinct, low, high] = result;
      expect(shape).toEqual([2, 3000]);
      expect(oneShape).toEqual([2, 1]);
      expect(integer).toBe(true);
      expect(counts[0][0]).toBe(0);
      expect(Math.abs(counts[0][2] / 3000 - 0.75)).toBeLessThan(0.04);
      expect(counts[1]).toEqual([3000, 0, 0]);
      expect(distinct).toEqual([0, 1, 2, 3, 4]);
      expect(low).toBeGreaterThanOrEqual(10);
      expect(high).toBeLessThan(20);
    });

    it("raises PyTorch's error for more samples than categories without replacement", async () => {
      const message = (await python.run(`
try:
    torch.multinomial(torch.ones(2, device="${device}"), 3)
    m = None
except RuntimeError as e:
    m = str(e)
m
`)) as string | null;
      expect(message).toContain(
        'cannot sample n_sample > prob_dist.size(-1) samples without replacement',
      );
    });
  },
);
