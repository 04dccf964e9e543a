import { describe, expect, it } from 'vitest';
import { cpu } from '../devices/registry';
import { fromHost } from '../ops/creation';
import { manualSeed } from '../random';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { DataLoader, Dataset, Subset, TensorDataset } from '.';

const devices = await testDevices();

/** Features row i = [i, 10 i], label i = i mod 3: every batch's rows tell where they came from. */
function dataset(n: number, device = cpu()): TensorDataset {
  const x = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) [x[2 * i], x[2 * i + 1]] = [i, 10 * i];
  const y = Int32Array.from({ length: n }, (_, i) => i % 3);
  return new TensorDataset(fromHost(x, [n, 2], { device }), fromHost(y, [n], { device }));
}

async function rowsOf(loader: DataLoader): Promise<number[][]> {
  const out: number[][] = [];
  for await (const [x, y] of loader) {
    const xs = Array.from(await x.data());
    const ys = Array.from(await y.data());
    const ids = ys.map((_, k) => xs[2 * k]);
    ids.forEach((id, k) => {
      expect(xs[2 * k + 1]).toBe(10 * id);
      expect(ys[k]).toBe(id % 3);
    });
    out.push(ids);
  }
  return out;
}

describe('DataLoader', () => {
  it('counts batches with and without dropLast, and the last batch is short', async () => {
    const ds = dataset(10);
    expect(ds.length).toBe(10);
    expect(new DataLoader(ds, { batchSize: 4 }).length).toBe(3);
    expect(new DataLoader(ds, { batchSize: 4, dropLast: true }).length).toBe(2);
    expect(new DataLoader(ds, 5).length).toBe(2);
    const batches = await rowsOf(new DataLoader(ds, { batchSize: 4 }));
    expect(batches).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
    const dropped = await rowsOf(new DataLoader(ds, { batchSize: 4, dropLast: true }));
    expect(dropped).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
  });

  it('shuffles a permutation each epoch, reproducibly with manualSeed', async () => {
    const ds = dataset(23);
    const loader = new DataLoader(ds, { batchSize: 5, shuffle: true });
    manualSeed(11);
    const first = await rowsOf(loader);
    const second = await rowsOf(loader);
    manualSeed(11);
    const again = await rowsOf(loader);
    expect(again).toEqual(first);
    expect(second).not.toEqual(first);
    const flat = first.flat();
    expect([...flat].sort((a, b) => a - b)).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(flat).not.toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(first.map((b) => b.length)).toEqual([5, 5, 5, 5, 3]);
  });

  it('batches a Subset in its index order', async () => {
    const sub = new Subset(dataset(10), [7, 2, 9, 0, 5]);
    expect(sub.length).toBe(5);
    expect(await rowsOf(new DataLoader(sub, { batchSize: 2 }))).toEqual([[7, 2], [9, 0], [5]]);
    const [x] = sub.get(0);
    expect(Array.from(await x.data())).toEqual([7, 70]);
    expect(() => new Subset(dataset(3), [0, 3])).toThrow(
      'index 3 (at position 1) is out of range for a dataset of 3 samples',
    );
  });

  it('batches a custom Dataset by stacking its samples', async () => {
    class Squares extends Dataset<[Tensor, number]> {
      get length(): number {
        return 5;
      }
      get(i: number): [Tensor, number] {
        return [fromHost(Float32Array.from([i, 10 * i]), [2], { device: cpu() }), i % 3];
      }
    }
    expect(await rowsOf(new DataLoader(new Squares(), { batchSize: 3 }))).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
  });

  it('refuses tensors of different lengths and a bad batch size', () => {
    const a = fromHost(new Float32Array(4), [4], { device: cpu() });
    const b = fromHost(new Float32Array(3), [3], { device: cpu() });
    expect(() => new TensorDataset(a, b)).toThrow('Size mismatch between tensors');
    expect(() => new DataLoader(new TensorDataset(a), { batchSize: 0 })).toThrow(
      'batch_size should be a positive integer',
    );
  });

  it.skipIf(devices.length < 2)('gathers batches on the device the data lives on', async () => {
    const gpu = devices[1];
    manualSeed(5);
    const onGpu = new DataLoader(dataset(17, gpu), { batchSize: 4, shuffle: true });
    let batches = 0;
    for await (const [x, y] of onGpu) {
      expect(x.device).toBe(gpu.name);
      expect(y.device).toBe(gpu.name);
      batches++;
    }
    expect(batches).toBe(5);
    manualSeed(5);
    const gpuRows = await rowsOf(onGpu);
    manualSeed(5);
    expect(await rowsOf(new DataLoader(dataset(17), { batchSize: 4, shuffle: true }))).toEqual(
      gpuRows,
    );
  });
});
