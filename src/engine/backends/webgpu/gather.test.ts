import { expect, it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import {
  describeKernels,
  at,
  expectClose,
  expectEqual,
  randomFloats,
  randomInts,
  rng,
} from './test-support';

const backend = await nodeGpuBackend();

function randomIndex(n: number, limit: number, random: () => number): Int32Array {
  return Int32Array.from({ length: n }, () => Math.floor(random() * limit));
}

describeKernels('gather, scatter and index kernels', backend, (gpu, ws) => {
  it('gatherColumns picks x[r, index[r]] from contiguous and transposed x', async () => {
    const random = rng(1);
    for (const [rows, cols] of [
      [1, 1],
      [3, 7],
      [65, 33],
      [129, 10],
    ]) {
      const data = randomFloats(rows * cols, random);
      const index = ws.view(randomIndex(rows, cols, random), [rows]);
      for (const x of [ws.view(data, [rows, cols]), ws.view(data, [rows, cols], [1, rows])]) {
        const out = ws.output('float32', [rows]);
        gpu.gatherColumns(x.view, index.view, out);
        const expected = Array.from({ length: rows }, (_, r) => at(x, [r, index.host[r]]));
        expectEqual(await ws.read(out), expected);
      }
    }
  });

  it('scatterColumns places values[r] at column index[r] and zeros elsewhere', async () => {
    const random = rng(2);
    for (const [rows, cols] of [
      [1, 1],
      [7, 3],
      [33, 65],
    ]) {
      // Values read with a stride of 2 (every other element).
      const values = ws.view(randomFloats(rows * 2, random), [rows], [2]);
      const index = ws.view(randomIndex(rows, cols, random), [rows]);
      const out = ws.output('float32', [rows, cols]);
      gpu.scatterColumns(values.view, index.view, out);
      const expected = new Float32Array(rows * cols);
      for (let r = 0; r < rows; r++) expected[r * cols + index.host[r]] = values.host[r * 2];
      expectEqual(await ws.read(out), expected);
    }
  });

  it('indexSelect gathers table rows (float32 and int32, strided table)', async () => {
    const random = rng(3);
    for (const [vocabulary, width, n] of [
      [1, 1, 1],
      [7, 3, 33],
      [65, 33, 7],
      [10, 129, 65],
    ]) {
      const data = randomFloats(vocabulary * width, random);
      const index = ws.view(randomIndex(n, vocabulary, random), [n]);
      const tables = [
        ws.view(data, [vocabulary, width]),
        ws.view(data, [vocabulary, width], [1, vocabulary]),
      ];
      for (const table of tables) {
        const out = ws.output('float32', [n, width]);
        gpu.indexSelect(table.view, index.view, out);
        const expected = new Float32Array(n * width);
        for (let i = 0; i < n; i++) {
          for (let d = 0; d < width; d++) expected[i * width + d] = at(table, [index.host[i], d]);
        }
        expectEqual(await ws.read(out), expected);
      }
    }
    const ints = ws.view(randomInts(12, random), [4, 3]);
    const index = ws.view(new Int32Array([3, 0, 3]), [3]);
    const out = ws.output('int32', [3, 3]);
    gpu.indexSelect(ints.view, index.view, out);
    expectEqual(await ws.read(out), [
      ...ints.host.slice(9),
      ...ints.host.slice(0, 3),
      ...ints.host.slice(9),
    ]);
  });

  it('indexAdd sums rows that share an index into a zeroed output', async () => {
    const random = rng(4);
    for (const [vocabulary, width, n] of [
      [1, 1, 3],
      [7, 3, 33],
      [5, 65, 129],
      [100, 7, 7],
    ]) {
      const values = ws.view(randomFloats(n * width, random), [n, width]);
      const index = ws.view(randomIndex(n, vocabulary, random), [n]);
      const out = ws.view(randomFloats(vocabulary * width, random), [vocabulary, width]);
      gpu.indexAdd(values.view, index.view, out.view);
      const expected = new Float64Array(vocabulary * width);
      for (let i = 0; i < n; i++) {
        for (let d = 0; d < width; d++)
          expected[index.host[i] * width + d] += values.host[i * width + d];
      }
      expectClose(await ws.read(out.view), expected, { rel: 1e-5, abs: 1e-5 });
    }
    // Heavy contention: every row lands on index 0; int32 is exact.
    const ones = ws.view(new Int32Array(200 * 3).fill(2), [200, 3]);
    const zeros = ws.view(new Int32Array(200), [200]);
    const sum = ws.output('int32', [2, 3]);
    gpu.indexAdd(ones.view, zeros.view, sum);
    expectEqual(await ws.read(sum), [400, 400, 400, 0, 0, 0]);
    const floats = ws.view(new Float32Array(1000).fill(0.25), [1000, 1]);
    const same = ws.view(new Int32Array(1000), [1000]);
    const total = ws.output('float32', [1, 1]);
    gpu.indexAdd(floats.view, same.view, total);
    expect((await ws.read(total))[0]).toBe(250);
  });
});
