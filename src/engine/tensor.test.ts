import { describe, expect, it } from 'vitest';
import { getDevice, gpuDevices } from './devices/registry';
import { memoryAllocated, setMemoryLimit } from './devices/stats';
import * as ops from './ops';
import { manualSeed } from './random';
import { Tensor } from './tensor';
import { testDevices } from './testing/devices';

const devices = await testDevices();
const cpu = devices[0];
const gpu = devices.find((d) => d.kind === 'gpu');

describe('creating tensors', () => {
  it('from nested arrays, typed arrays and numbers', async () => {
    const t = ops.fromData(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { device: cpu },
    );
    expect([...t.shape]).toEqual([2, 3]);
    expect(t.dtype).toBe('float32');
    expect(await t.tolist()).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const i = ops.fromData(new Int32Array([7, 8]), { device: cpu });
    expect(i.dtype).toBe('int32');
    const u = ops.fromData(new Uint8Array([1, 255]), { device: cpu });
    expect(u.dtype).toBe('int32');
    expect(Array.from(await u.data())).toEqual([1, 255]);
    const s = ops.fromData(2.5, { device: cpu });
    expect([...s.shape]).toEqual([]);
    expect(await s.item()).toBe(2.5);
    const labels = ops.fromData([0, 2, 1], { device: cpu, dtype: 'int32' });
    expect(labels.dtype).toBe('int32');
  });

  it('explains ragged nested arrays', () => {
    expect(() => ops.fromData([[1, 2], [3]], { device: cpu })).toThrow(
      'expected sequence of length 2 at dim 1 (got 1 at [1])',
    );
  });

  it('arange gives int32 for integer arguments and float32 otherwise', async () => {
    const a = ops.arange(0, 5, 1, { device: cpu });
    expect(a.dtype).toBe('int32');
    expect(Array.from(await a.data())).toEqual([0, 1, 2, 3, 4]);
    const f = ops.arange(0, 1, 0.25, { device: cpu });
    expect(f.dtype).toBe('float32');
    expect(Array.from(await f.data())).toEqual([0, 0.25, 0.5, 0.75]);
  });

  it('item() needs exactly one element', async () => {
    await expect(ops.zeros([2], { device: cpu }).item()).rejects.toThrow(
      'a Tensor with 2 elements cannot be converted to Scalar',
    );
  });
});

describe('seeded random numbers', () => {
  it('reproduce from a seed, advance with use, and have the right moments', async () => {
    manualSeed(7);
    const a = Array.from(await ops.rand([1000], { device: cpu }).data());
    const b = Array.from(await ops.rand([1000], { device: cpu }).data());
    manualSeed(7);
    expect(Array.from(await ops.rand([1000], { device: cpu }).data())).toEqual(a);
    expect(b).not.toEqual(a);
    expect(a.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
    const n = Array.from(await ops.randn([4000], { device: cpu }).data());
    const m = n.reduce((s, v) => s + v, 0) / n.length;
    const variance = n.reduce((s, v) => s + (v - m) ** 2, 0) / n.length;
    expect(Math.abs(m)).toBeLessThan(0.06);
    expect(Math.abs(variance - 1)).toBeLessThan(0.08);
  });

  it.runIf(gpu)('give the same uniform numbers on cpu and gpu for a seed', async () => {
    manualSeed(123);
    const onCpu = await ops.random('uniform', [333], -2, 3, { device: cpu }).data();
    manualSeed(123);
    const onGpu = await ops.random('uniform', [333], -2, 3, { device: gpu! }).data();
    expect(Array.from(onGpu)).toEqual(Array.from(onCpu));
    manualSeed(5);
    const nCpu = await ops.randn([100], { device: cpu }).data();
    manualSeed(5);
    const nGpu = await ops.randn([100], { device: gpu! }).data();
    nCpu.forEach((v, i) => expect(nGpu[i]).toBeCloseTo(v, 4));
  });
});

describe('devices', () => {
  it('parse every accepted spelling', () => {
    for (const name of ['cpu', '/cpu:0', 'CPU', '/device:CPU:0'])
      expect(getDevice(name).name).toBe('cpu');
    if (gpu) {
      for (const name of [
        'gpu',
        'gpu:0',
        'cuda',
        'cuda:0',
        '/gpu:0',
        '/device:GPU:0',
        '/job:localhost/replica:0/task:0/device:GPU:0',
      ]) {
        expect(getDevice(name)).toBe(gpu);
      }
    }
    expect(() => getDevice('tpu')).toThrow('Unknown device "tpu"');
    expect(() => getDevice(`gpu:${gpuDevices().length + 3}`)).toThrow(
      /does not exist|is not available/,
    );
  });

  it.runIf(gpu)('moves tensors with to/cuda/cpu without awaiting, and reports isCuda', async () => {
    const t = ops.fromData(
      [
        [1, 2],
        [3, 4],
      ],
      { device: cpu },
    );
    const g = t.cuda();
    expect(g.device).toBe('gpu:0');
    expect(g.isCuda).toBe(true);
    const back = ops.mul(g, 2).cpu();
    expect(back.device).toBe('cpu');
    // A cpu op on a tensor whose copy from the gpu is still under way is queued behind it.
    const plusOne = ops.add(back, 1);
    expect(await plusOne.tolist()).toEqual([
      [3, 5],
      [7, 9],
    ]);
    expect(t.to('gpu:0').to('cpu').device).toBe('cpu');
    expect(t.to('int32').dtype).toBe('int32');
    expect(t.to(g).device).toBe('gpu:0');
    expect(t.to({ device: 'cuda', dtype: 'int32' }).dtype).toBe('int32');
  });

  it.runIf(gpu)("refuses ops across devices with PyTorch's message", () => {
    const a = ops.ones([2], { device: gpu! });
    const b = ops.ones([2], { device: cpu });
    expect(() => ops.add(a, b)).toThrow(
      'Expected all tensors to be on the same device, but found at least two devices, gpu:0 and cpu!',
    );
    expect(() => ops.add(b, a)).toThrow('found at least two devices, gpu:0 and cpu!');
    // A 0-d cpu tensor may join, as in PyTorch.
    expect(() => ops.add(a, ops.fromData(2, { device: cpu }))).not.toThrow();
  });

  it.each(devices.map((d) => [d.name, d] as const))(
    'enforces a memory limit on %s and stays usable',
    async (_, device) => {
      const base = memoryAllocated(device);
      setMemoryLimit(device, base + 1000);
      try {
        expect(() => ops.zeros([1000], { device })).toThrow(
          new RegExp(
            `Out of memory on ${device.name}: tried to allocate 3\\.91 KiB \\(4000 bytes\\) with .* already in use and a limit of`,
          ),
        );
        expect(memoryAllocated(device)).toBe(base);
        const small = ops.ones([10], { device });
        expect(Array.from(await small.data())).toEqual(new Array(10).fill(1));
      } finally {
        setMemoryLimit(device, null);
      }
    },
  );
});

describe('tensor members', () => {
  it('follow the calling convention: positional or one options object', async () => {
    const t = ops.fromData(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { device: cpu },
    );
    expect(await t.sum().item()).toBe(21);
    expect(Array.from(await t.sum(1).data())).toEqual([6, 15]);
    expect([...t.sum(1, true).shape]).toEqual([2, 1]);
    expect([...t.sum({ dim: 1, keepdim: true }).shape]).toEqual([2, 1]);
    expect([...t.sum(0, { keepdim: true }).shape]).toEqual([1, 3]);
    expect([...t.reshape(3, 2).shape]).toEqual([3, 2]);
    expect([...t.reshape([6]).shape]).toEqual([6]);
    expect([...t.view(-1, 2).shape]).toEqual([3, 2]);
    expect([...t.permute(1, 0).shape]).toEqual([3, 2]);
    expect([...t.unsqueeze(0).shape]).toEqual([1, 2, 3]);
    expect([...t.unsqueeze({ dim: -1 }).shape]).toEqual([2, 3, 1]);
    expect(t.size(1)).toBe(3);
    expect(Array.from(await t.argmax({ dim: 1 }).data())).toEqual([2, 2]);
    const [values, indices] = t.max(1);
    expect(Array.from(await values.data())).toEqual([3, 6]);
    expect(Array.from(await indices.data())).toEqual([2, 2]);
    expect(() => t.sum({ dims: 1 } as never)).toThrow(
      "Tensor.sum() got an unexpected keyword argument 'dims'",
    );
    expect(t).toBeInstanceOf(Tensor);
    expect(String(t)).toBe("Tensor(shape=[2, 3], dtype=float32, device='cpu')");
  });
});
