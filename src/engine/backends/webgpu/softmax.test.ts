import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import { describeKernels, at, expectClose, randomFloats, rng, type HostView } from './test-support';
import type { RowMode } from './variants';

const backend = await nodeGpuBackend();

function reference(x: HostView, log: boolean): Float64Array {
  const [rows, cols] = x.view.shape;
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, at(x, [r, c]));
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp(at(x, [r, c]) - max);
    for (let c = 0; c < cols; c++) {
      const shifted = at(x, [r, c]) - max;
      out[r * cols + c] = log ? shifted - Math.log(sum) : Math.exp(shifted) / sum;
    }
  }
  return out;
}

describeKernels('softmax kernel', backend, ['softmax'], (gpu, ws) => {
  for (const mode of ['thread', 'workgroup', undefined] as (RowMode | undefined)[]) {
    it(`softmax and log-softmax over odd widths and strided rows (${mode ?? 'auto'})`, async () => {
      gpu.overrides.softmax = mode;
      const random = rng(7);
      for (const cols of [1, 3, 7, 33, 65, 129, 1000]) {
        for (const rows of [1, 3, 7]) {
          // Large logits check the max shift; a transposed view checks strided columns.
          const data = randomFloats(rows * cols, random, 0.1, 30);
          const views = [ws.view(data, [rows, cols]), ws.view(data, [rows, cols], [1, rows])];
          for (const x of views) {
            for (const log of [false, true]) {
              const out = ws.output('float32', [rows, cols]);
              gpu.softmax(x.view, out, log);
              expectClose(await ws.read(out), reference(x, log), { rel: 1e-5, abs: 1e-6 });
            }
          }
        }
      }
    });
  }

  it('gives -inf logits zero probability', async () => {
    const x = ws.view(new Float32Array([-Infinity, 1, 2, -Infinity, 0, -Infinity]), [2, 3]);
    const out = ws.output('float32', [2, 3]);
    gpu.softmax(x.view, out, false);
    const e = Math.exp(1);
    expectClose(await ws.read(out), [0, 1 / (1 + e), e / (1 + e), 0, 1, 0]);
  });
});
