import { expect, it } from 'vitest';
import type { ReduceOp } from '../../backend';
import { nodeGpuBackend } from '../../testing/node-gpu';
import { planReduce } from './reduce';
import {
  describeKernels,
  at,
  expectEqual,
  forEachIndex,
  product,
  randomFloats,
  randomInts,
  rng,
  type HostView,
} from './test-support';
import type { RowMode } from './variants';

const backend = await nodeGpuBackend();
const OPS: ReduceOp[] = ['sum', 'max', 'min', 'argmax', 'argmin'];

/** float64 reduction of the last `dims` dims; returns values (and sum of |x| per row for sums). */
function reference(
  x: HostView,
  dims: number,
  op: ReduceOp,
): { values: Float64Array; scale: Float64Array } {
  const shape = x.view.shape;
  const kept = shape.slice(0, shape.length - dims);
  const reduced = shape.slice(shape.length - dims);
  const values = new Float64Array(product(kept));
  const scale = new Float64Array(product(kept));
  forEachIndex(kept, (k, row) => {
    let best = NaN;
    let bestAt = -1;
    let sum = 0;
    let magnitude = 0;
    forEachIndex(reduced, (r, j) => {
      const v = at(x, [...k, ...r]);
      sum += v;
      magnitude += Math.abs(v);
      const better = op === 'max' || op === 'argmax' ? v > best : v < best;
      if (bestAt < 0 || better) {
        best = v;
        bestAt = j;
      }
    });
    values[row] = op === 'sum' ? sum : op === 'max' || op === 'min' ? best : bestAt;
    scale[row] = magnitude;
  });
  return { values, scale };
}

describeKernels('reduce kernel', backend, ['reduce'], (gpu, ws) => {
  async function check(x: HostView, dims: number, op: ReduceOp): Promise<void> {
    const keptShape = x.view.shape.slice(0, x.view.shape.length - dims);
    const arg = op === 'argmax' || op === 'argmin';
    const out = ws.output(arg ? 'int32' : x.view.dtype, keptShape);
    gpu.reduce(op, x.view, dims, out);
    const actual = await ws.read(out);
    const { values, scale } = reference(x, dims, op);
    if (op === 'sum') {
      // float32 accumulation: error grows with the magnitude summed, not with the result.
      for (let i = 0; i < values.length; i++) {
        expect(Math.abs(actual[i] - values[i]), `row ${i}`).toBeLessThanOrEqual(
          2e-6 * scale[i] + 1e-6,
        );
      }
    } else {
      expectEqual(actual, values);
    }
  }

  for (const mode of ['thread', 'workgroup', undefined] as (RowMode | undefined)[]) {
    it(`all ops over odd row lengths (${mode ?? 'auto'} mode)`, async () => {
      gpu.overrides.reduce = mode;
      const random = rng(mode === 'thread' ? 1 : 2);
      for (const inner of [1, 3, 7, 33, 65, 129, 5000]) {
        for (const rows of [1, 3, 7]) {
          const x = ws.view(randomFloats(rows * inner, random), [rows, inner]);
          for (const op of OPS) await check(x, 1, op);
        }
      }
    });
  }

  it('splits long rows into chunks when rows are few, longer chunks for workgroups', () => {
    for (const mode of ['thread', 'workgroup'] as RowMode[]) {
      expect(planReduce(1, 100_000, mode).chunkLen).toBeLessThan(100_000);
      expect(planReduce(1, 100_000, mode).mode).toBe(mode);
      expect(planReduce(10_000, 100_000, mode).chunkLen).toBe(100_000);
      expect(planReduce(3, 100, mode).chunkLen).toBe(100);
    }
    // An invocation reduces chunks of >= 256 elements, a workgroup of >= 2048 (its 64 lanes share).
    expect(planReduce(1, 100_000, 'thread').chunkLen).toBe(Math.ceil(100_000 / 391));
    expect(planReduce(1, 100_000, 'workgroup').chunkLen).toBe(Math.ceil(100_000 / 49));
    expect(planReduce(1, 10_000_000, 'thread').chunkLen).toBe(Math.ceil(10_000_000 / 8192));
    expect(planReduce(1, 10_000_000, 'workgroup').chunkLen).toBe(Math.ceil(10_000_000 / 128));
    // Rows of up to four minimum chunks stay whole (one pass); longer ones split.
    expect(planReduce(2, 1000, 'thread').chunkLen).toBe(1000);
    expect(planReduce(1, 1024, 'thread').chunkLen).toBe(1024);
    expect(planReduce(1, 1025, 'thread').chunkLen).toBe(205);
    expect(planReduce(1, 8192, 'workgroup').chunkLen).toBe(8192);
    expect(planReduce(1, 8193, 'workgroup').chunkLen).toBe(1639);
  });

  it('keeps the first occurrence of tied extremes across chunks', async () => {
    for (const mode of ['thread', 'workgroup'] as RowMode[]) {
      gpu.overrides.reduce = mode;
      const data = randomFloats(2 * 6000, rng(3), 0.1, 1);
      for (const at of [4100, 4900, 5999]) data[at] = 5;
      for (const at of [6000 + 3000, 6000 + 10]) data[at] = -5;
      const x = ws.view(data, [2, 6000]);
      await check(x, 1, 'argmax');
      await check(x, 1, 'argmin');
      const out = ws.output('int32', [2]);
      gpu.reduce('argmax', x.view, 1, out);
      expect((await ws.read(out))[0]).toBe(4100);
    }
  });

  it('reduces several trailing dims of strided (permuted, broadcast) views', async () => {
    const random = rng(4);
    const data = randomFloats(3 * 5 * 7, random);
    // [7, 5, 3] buffer seen as [3, 5, 7] (full transpose): reduced block is strided in both dims.
    const permuted = ws.view(data, [3, 5, 7], [1, 3, 15]);
    // Column sums: [33, 7] buffer seen transposed, reducing along the stride-7 axis.
    const columns = ws.view(randomFloats(33 * 7, random), [7, 33], [1, 7]);
    // A broadcast (stride 0) dimension inside the reduced block.
    const broadcast = ws.view(randomFloats(3 * 7, random), [3, 4, 7], [7, 0, 1]);
    for (const mode of ['thread', 'workgroup'] as RowMode[]) {
      gpu.overrides.reduce = mode;
      for (const op of OPS) {
        await check(permuted, 2, op);
        await check(permuted, 1, op);
        await check(permuted, 3, op);
        await check(columns, 1, op);
        await check(broadcast, 2, op);
      }
    }
  });

  it('reduces int32 exactly and fills empty reductions with the identity', async () => {
    const ints = ws.view(randomInts(7 * 129, rng(5), 1000), [7, 129]);
    for (const op of OPS) await check(ints, 1, op);
    const empty = ws.view(new Float32Array(1), [3, 0]);
    const sum = ws.output('float32', [3]);
    gpu.reduce('sum', empty.view, 1, sum);
    expectEqual(await ws.read(sum), [0, 0, 0]);
    const max = ws.output('float32', [3]);
    gpu.reduce('max', empty.view, 1, max);
    expectEqual(await ws.read(max), [-Infinity, -Infinity, -Infinity]);
  });
});
