/**
 * The normalisation layers' module mechanics (their numbers are checked against real PyTorch in
 * api/python/torch-norm.test.ts): buffers in state dicts and through `to()`, a state dict's round
 * trip, and BatchNorm inside nn.DataParallel, where each replica normalises its own chunk and the
 * running statistics are device 0's, as in PyTorch.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getDevice } from '../../devices/registry';
import * as ops from '../../ops';
import { DataParallel } from '../../parallel/data-parallel';
import type { Tensor } from '../../tensor';
import { initTwoLogicalGpus } from '../../testing/two-gpus';
import { BatchNorm1d, LayerNorm, Linear, Sequential } from '..';

beforeAll(initTwoLogicalGpus);

const cpu = () => getDevice('cpu');
const values = async (t: Tensor) => Array.from(await t.data());

/** Rows [rows, 3] with distinct, non-zero values. */
function batch(rows: number, shift = 0): Tensor {
  const data = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: 3 }, (_, j) => Math.sin(i * 3 + j * 7 + shift) * (j + 1) + j),
  );
  return ops.fromData(data, { device: cpu() });
}

/** Per-column means of a [rows, 3] batch, in float64. */
async function columnMeans(x: Tensor): Promise<number[]> {
  const v = await values(x);
  const rows = v.length / 3;
  return [0, 1, 2].map((j) => v.filter((_, k) => k % 3 === j).reduce((s, a) => s + a, 0) / rows);
}

function near(actual: number[], expected: number[], tol = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) =>
    expect(Math.abs(v - expected[i]), `[${i}] ${v} vs ${expected[i]}`).toBeLessThan(tol),
  );
}

describe('normalisation layers as modules', () => {
  it('keep their buffers in the state dict, restore them, and move them with to()', async () => {
    const net = new Sequential(new Linear(3, 3), new BatchNorm1d(3), new LayerNorm(3));
    expect(Object.keys(net.stateDict())).toEqual([
      '0.weight',
      '0.bias',
      '1.weight',
      '1.bias',
      '1.running_mean',
      '1.running_var',
      '1.num_batches_tracked',
      '2.weight',
      '2.bias',
    ]);
    const bn = net[1] as BatchNorm1d;
    bn(batch(6));
    bn(batch(6, 1));
    expect(await values(bn.num_batches_tracked as Tensor)).toEqual([2]);
    const copy = new BatchNorm1d(3);
    copy.loadStateDict(bn.stateDict());
    for (const name of ['running_mean', 'running_var', 'num_batches_tracked'] as const)
      near(await values(copy[name] as Tensor), await values(bn[name] as Tensor));
    copy.eval();
    bn.eval();
    near(await values(copy(batch(4, 2))), await values(bn(batch(4, 2))));
    const runningMean = bn.running_mean;
    net.to('gpu:0');
    expect(bn.running_mean).toBe(runningMean); // moved in place, as a parameter is
    expect(bn.buffers().map((t) => t.device)).toEqual(['gpu:0', 'gpu:0', 'gpu:0']);
    expect((bn(batch(4, 2).to('gpu:0')) as Tensor).device).toBe('gpu:0');
  });

  it('run inside DataParallel: each replica uses its chunk, running stats are device 0s', async () => {
    const bn = new BatchNorm1d(3, { momentum: 0.5 });
    const dp = new DataParallel(bn);
    const x = batch(8);
    const y = dp(x) as Tensor;
    expect(y.device).toBe('gpu:0');
    y.sum().backward();
    expect(bn.weight?.grad).not.toBeNull();
    // torch.chunk's split: rows 0..3 on device 0, which updates the primary buffers.
    const first = await columnMeans(ops.narrow(x, 0, 0, 4));
    near(
      await values(bn.running_mean as Tensor),
      first.map((m) => 0.5 * m),
    );
    // Each chunk is normalised by its own statistics: every column of every chunk has mean 0.
    for (const start of [0, 4])
      near(await columnMeans(ops.narrow(y.to('cpu'), 0, start, 4)), [0, 0, 0]);
  });
});
