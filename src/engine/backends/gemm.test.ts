import { describe, expect, it } from 'vitest';
import type { Backend, GemmOptions, View } from '../backend';
import { CpuBackend } from './cpu';
import { nodeGpuBackend } from '../testing/node-gpu';

const gpu = await nodeGpuBackend();
const backends: [string, Backend][] = [['cpu', new CpuBackend()]];
if (gpu) backends.push(['webgpu', gpu]);

function seeded(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const v = 0.1 + ((s >>> 8) / 2 ** 24) * 1.9;
    out[i] = i % 3 === 0 ? -v : v;
  }
  return out;
}

function upload(backend: Backend, data: Float32Array, shape: number[], strides: number[]): View {
  const buffer = backend.allocate(data.length * 4);
  backend.write(buffer, data);
  return { buffer, dtype: 'float32', shape, strides, offset: 0 };
}

describe.each(backends)('gemm epilogues on %s', (_, backend) => {
  async function run(
    batch: number,
    m: number,
    k: number,
    n: number,
    options: { bias?: boolean; relu?: boolean; pixels?: number; sum?: boolean },
  ): Promise<void> {
    const a = seeded(batch * m * k, m * 7 + k);
    const b = seeded(batch * k * n, n * 13 + k);
    const bias = seeded(n, 99);
    const outSize = (options.sum ? 1 : batch) * m * n;
    const out: View = {
      buffer: backend.allocate(outSize * 4),
      dtype: 'float32',
      shape: [options.sum ? 1 : batch, m, n],
      strides: [m * n, n, 1],
      offset: 0,
    };
    const gemmOptions: GemmOptions = {
      bias: options.bias ? upload(backend, bias, [n], [1]) : null,
      relu: options.relu,
      nchwPixels: options.pixels,
      sumBatches: options.sum,
    };
    backend.gemm(
      upload(backend, a, [batch, m, k], [m * k, k, 1]),
      // B transposed in memory, as a convolution reads its weight.
      upload(backend, transpose(b, batch, k, n), [batch, k, n], [k * n, 1, k]),
      out,
      gemmOptions,
    );
    const got = (await backend.read(out.buffer, 'float32', 0, outSize)) as Float32Array;
    const batches = options.sum ? 1 : batch;
    for (let bi = 0; bi < batches; bi++) {
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0;
          let magnitude = 0;
          for (const s of options.sum ? [...Array(batch).keys()] : [bi]) {
            for (let t = 0; t < k; t++) {
              const term = a[(s * m + i) * k + t] * b[(s * k + t) * n + j];
              sum += term;
              magnitude += Math.abs(term);
            }
          }
          if (options.bias) sum += bias[j];
          if (options.relu) sum = Math.max(sum, 0);
          const p = options.pixels;
          const at = p
            ? bi * m * n + (Math.floor(i / p) * n + j) * p + (i % p)
            : (bi * m + i) * n + j;
          if (!(Math.abs(got[at] - sum) <= 1e-5 * magnitude + 1e-5)) {
            expect.fail(`${JSON.stringify(options)} [${bi},${i},${j}]: ${got[at]} vs ${sum}`);
          }
        }
      }
    }
  }

  function transpose(b: Float32Array, batch: number, k: number, n: number): Float32Array {
    const out = new Float32Array(b.length);
    for (let s = 0; s < batch; s++)
      for (let t = 0; t < k; t++)
        for (let j = 0; j < n; j++) out[s * k * n + j * k + t] = b[(s * k + t) * n + j];
    return out;
  }

  it('adds the bias, applies relu and writes NCHW (odd sizes)', async () => {
    await run(1, 45, 37, 13, { bias: true, pixels: 9 });
    await run(1, 70, 5, 33, { bias: true, relu: true, pixels: 35 });
    await run(1, 29, 66, 7, { relu: true });
    await run(2, 17, 19, 21, { bias: true });
  });

  it('sums the batch products into one output', async () => {
    await run(5, 13, 27, 11, { sum: true });
    await run(3, 64, 81, 40, { sum: true });
  });
});
