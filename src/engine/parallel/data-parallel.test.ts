import { beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '../devices/device';
import { getDevice, gpuDevices } from '../devices/registry';
import { Linear, Module, MSELoss, ReLU, Sequential } from '../nn';
import * as ops from '../ops';
import { Adam, SGD, type Optimizer } from '../optim';
import { manualSeed } from '../random';
import type { Tensor } from '../tensor';
import { DataParallel } from './data-parallel';
import { setTrainingOutput } from '../training/output';
import { chunkSizes } from './scatter-gather';
import { initTwoLogicalGpus } from '../testing/two-gpus';

beforeAll(initTwoLogicalGpus);

function model(seed: number): Module {
  manualSeed(seed);
  return new Sequential(new Linear(6, 16), new ReLU(), new Linear(16, 3));
}

/** The same batches for every run: 11 rows (uneven over 2 devices), values never zero. */
function batches(device: Device, steps: number): [Tensor, Tensor][] {
  const out: [Tensor, Tensor][] = [];
  for (let s = 0; s < steps; s++) {
    const x = Array.from({ length: 11 }, (_, i) =>
      Array.from({ length: 6 }, (_, j) => Math.sin(s * 7 + i * 3 + j) + 0.1),
    );
    const y = Array.from({ length: 11 }, (_, i) =>
      Array.from({ length: 3 }, (_, j) => Math.cos(s + i * 2 + j * 5)),
    );
    // Held across the training steps, as a notebook variable would hold them.
    out.push([ops.fromData(x, { device }).keep(), ops.fromData(y, { device }).keep()]);
  }
  return out;
}

async function paramsOf(m: Module): Promise<number[][]> {
  return Promise.all(m.parameters().map(async (p) => Array.from(await p.data())));
}

function expectClose(a: number[][], b: number[][], tolerance: number): void {
  expect(a.map((p) => p.length)).toEqual(b.map((p) => p.length));
  let worst = 0;
  a.forEach((p, i) => p.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - b[i][j])))));
  expect(worst).toBeLessThan(tolerance);
}

/** Trains with the chapter's loop: loss = criterion(model(x), y); loss.backward(); opt.step(). */
async function train(
  net: Module,
  params: Tensor[],
  makeOptimizer: (p: Tensor[]) => Optimizer,
  data: [Tensor, Tensor][],
) {
  const criterion = new MSELoss();
  const optimizer = makeOptimizer(params);
  for (const [x, y] of data) {
    optimizer.zeroGrad();
    const loss = criterion(net(x), y);
    loss.backward();
    optimizer.step();
  }
}

describe('nn.DataParallel on two logical GPUs', () => {
  it('splits batches as torch.chunk does', () => {
    expect(chunkSizes(11, 2)).toEqual([6, 5]);
    expect(chunkSizes(1, 2)).toEqual([1]);
    expect(chunkSizes(9, 4)).toEqual([3, 3, 3]);
  });

  it('wraps a module: module, deviceIds, state dict keys, outputs on device 0', async () => {
    const inner = model(3);
    const dp = new DataParallel(inner);
    expect(dp.module).toBe(inner);
    expect(dp.deviceIds).toEqual([0, 1]);
    expect(inner.parameters()[0].device).toBe('gpu:0');
    expect(Object.keys(dp.stateDict())).toEqual([
      'module.0.weight',
      'module.0.bias',
      'module.2.weight',
      'module.2.bias',
    ]);
    expect(Object.keys(dp.module.stateDict())).toEqual([
      '0.weight',
      '0.bias',
      '2.weight',
      '2.bias',
    ]);
    const [[x]] = batches(getDevice('cpu'), 1);
    const out = dp(x) as Tensor;
    expect(out.device).toBe('gpu:0');
    expect([...out.shape]).toEqual([11, 3]);
    const single = inner(x.to('gpu:0'));
    const printed: string[] = [];
    setTrainingOutput((text) => printed.push(text));
    dp.summary({ inputShape: [6] });
    setTrainingOutput(null);
    expect(printed.join('')).toContain('Total params: 163');
    expect(printed.join('').match(/Linear-/g)).toHaveLength(2);
    expectClose([Array.from(await out.data())], [Array.from(await single.data())], 1e-6);
  });

  it('gives the gradients of one device, summed onto the primary parameters', async () => {
    const reference = model(5).to('gpu:0');
    const dp = new DataParallel(model(5), [0, 1]);
    const [[x, y]] = batches(getDevice('gpu:0'), 1);
    new MSELoss()(reference(x), y).backward();
    new MSELoss()(dp(x) as Tensor, y).backward();
    const grads = (m: Module) =>
      Promise.all(m.parameters().map(async (p) => Array.from(await (p.grad as Tensor).data())));
    expectClose(await grads(dp.module), await grads(reference), 1e-6);
    // Gradients accumulate over two backwards, as on one device.
    new MSELoss()(reference(x), y).backward();
    new MSELoss()(dp(x) as Tensor, y).backward();
    expectClose(await grads(dp.module), await grads(reference), 1e-6);
  });

  for (const [name, makeOptimizer] of [
    ['SGD with momentum', (p: Tensor[]) => new SGD(p, { lr: 0.05, momentum: 0.9 })],
    ['Adam', (p: Tensor[]) => new Adam(p, { lr: 0.01 })],
  ] as const) {
    it(`trains to the same parameters as one device (${name})`, async () => {
      const steps = 4;
      const reference = model(7).to('gpu:0');
      await train(
        reference,
        reference.parameters(),
        makeOptimizer,
        batches(getDevice('gpu:0'), steps),
      );
      const dp = new DataParallel(model(7));
      await train(dp, dp.parameters(), makeOptimizer, batches(getDevice('gpu:0'), steps));
      const expected = await paramsOf(reference);
      expectClose(await paramsOf(dp.module), expected, 1e-5);
      // The parameters moved: the run trained, and both devices took part.
      expect((await paramsOf(model(7)))[0]).not.toEqual(expected[0]);
      expect(gpuDevices()[1].memory.inUse).toBeGreaterThan(0);
    });
  }
});
