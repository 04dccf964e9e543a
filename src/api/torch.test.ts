import { describe, expect, it } from 'vitest';
import type { Tensor } from '../engine';
import { testDevices } from '../engine/testing/devices';
import { torch } from './torch';

const devices = await testDevices();
const hasGpu = devices.length > 1;

describe('torch creation functions', () => {
  it('create on the cpu unless a device is given, with sizes as varargs, a list or by name', async () => {
    expect(torch.zeros(2, 3).device).toBe('cpu');
    expect([...torch.ones([2, 3]).shape]).toEqual([2, 3]);
    expect([...torch.rand({ size: [4] }).shape]).toEqual([4]);
    expect(torch.randn(2, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.zeros([2], { dtype: torch.int32 }).dtype).toBe('int32');
    expect(await torch.full([2], 7).tolist()).toEqual([7, 7]);
    expect(await torch.arange(4).tolist()).toEqual([0, 1, 2, 3]);
    expect(await torch.arange(1, 2, 0.5).tolist()).toEqual([1, 1.5]);
  });

  it('torch.tensor takes nested arrays, typed arrays and options', async () => {
    const t = torch.tensor(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: 'int32' },
    );
    expect(t.dtype).toBe('int32');
    expect(await t.tolist()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(torch.tensor(new Float32Array([1, 2])).dtype).toBe('float32');
    const w = torch.tensor([1.5], { requiresGrad: true });
    expect(w.requiresGrad).toBe(true);
  });

  it('manualSeed makes rand, randn, normal and randnLike reproducible', async () => {
    torch.manualSeed(0);
    const a = await torch.rand(5).tolist();
    const n = await torch.normal(2, 0.5, [3]).tolist();
    torch.manualSeed(0);
    expect(await torch.rand(5).tolist()).toEqual(a);
    expect(await torch.normal(2, 0.5, { size: [3] }).tolist()).toEqual(n);
    const like = torch.randnLike(torch.zeros(2, 2));
    expect([...like.shape]).toEqual([2, 2]);
    expect(await torch.zerosLike(like).tolist()).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(await torch.onesLike(like, { dtype: 'int32' }).tolist()).toEqual([
      [1, 1],
      [1, 1],
    ]);
  });

  it('matmul, argmax, cat, stack and functional forms', async () => {
    const a = torch.tensor([
      [1, 2],
      [3, 4],
    ]);
    const b = torch.tensor([[5], [6]]);
    expect(await torch.matmul(a, b).tolist()).toEqual([[17], [39]]);
    expect(await torch.argmax(a, { dim: 1 }).tolist()).toEqual([1, 1]);
    expect(await torch.argmax(a).item()).toBe(3);
    expect([...torch.cat([a, a], 1).shape]).toEqual([2, 4]);
    expect([...torch.cat([a, a], { dim: 0 }).shape]).toEqual([4, 2]);
    expect([...torch.stack([a, a]).shape]).toEqual([2, 2, 2]);
    expect(await torch.sum(a, 0).tolist()).toEqual([4, 6]);
    expect(await torch.exp(torch.zeros(1)).tolist()).toEqual([1]);
  });

  it('noGrad turns off graph recording for sync and async bodies', async () => {
    const w = torch.ones(2, { requiresGrad: true });
    expect(torch.noGrad(() => w.mul(2)).requiresGrad).toBe(false);
    const y = await torch.noGrad(async () => w.mul(2));
    expect(y.requiresGrad).toBe(false);
    expect(w.mul(2).requiresGrad).toBe(true);
  });

  it('a full training step reads like PyTorch', async () => {
    torch.manualSeed(1);
    const x = torch.randn(16, 3);
    const y = x.matmul(torch.tensor([[1], [-2], [0.5]]));
    const w = torch.zeros([3, 1], { requiresGrad: true });
    let first = 0;
    let last = 0;
    for (let i = 0; i < 50; i++) {
      const loss = x.matmul(w).sub(y).pow(2).mean();
      loss.backward();
      torch.noGrad(() => {
        w.sub_((w.grad as Tensor).mul(0.1));
        (w.grad as Tensor).zero_();
      });
      if (i === 0) first = await loss.item();
      last = await loss.item();
    }
    expect(last).toBeLessThan(first / 100);
  });
});

describe('torch.device and torch.cuda', () => {
  it('torch.device names our devices and has PyTorch fields', () => {
    const d = torch.device('cuda:0');
    expect(d.type).toBe('cuda');
    expect(d.index).toBe(0);
    expect(String(d)).toBe('gpu:0');
    expect(torch.device('cuda', 1).name).toBe('gpu:1');
    expect(torch.device('cpu').type).toBe('cpu');
  });

  it('reports availability, names and memory', () => {
    expect(torch.cuda.isAvailable()).toBe(hasGpu);
    expect(torch.cuda.deviceCount()).toBe(devices.length - 1);
    if (!hasGpu) return;
    expect(torch.cuda.getDeviceName(0).length).toBeGreaterThan(0);
    const before = torch.cuda.memoryAllocated();
    const t = torch.zeros([256], { device: torch.device('cuda') });
    expect(torch.cuda.memoryAllocated(0)).toBe(before + 1024);
    expect(torch.cuda.maxMemoryAllocated()).toBeGreaterThanOrEqual(before + 1024);
    t.dispose();
    expect(torch.cuda.memoryAllocated('cuda:0')).toBe(before);
    torch.cuda.emptyCache();
  });

  it.runIf(hasGpu)('moves a computation to the GPU like the chapters do', async () => {
    const device = torch.device(torch.cuda.isAvailable() ? 'cuda' : 'cpu');
    const a = torch.rand([64, 64], { device });
    const b = torch.rand([64, 64]).to(device);
    expect(a.isCuda && b.isCuda).toBe(true);
    const c = a.matmul(b);
    await torch.cuda.synchronize();
    const cpuResult = a.cpu().matmul(b.cpu());
    const [g, h] = [await c.data(), await cpuResult.data()];
    g.forEach((v, i) => expect(v).toBeCloseTo(h[i], 3));
  });
});
