import { it } from 'vitest';
import type { Conv2dGeometry } from '../../backend';
import { nodeGpuBackend } from '../../testing/node-gpu';
import { describeKernels, at, expectClose, expectEqual, randomFloats, rng } from './test-support';
import { convGeometry as geometry, forEachTap } from '../../testing/conv-geometry';

const backend = await nodeGpuBackend();

const GEOMETRIES: Conv2dGeometry[] = [
  geometry([2, 3, 7, 5], [3, 3], [1, 1], [1, 1], [1, 1]),
  geometry([1, 2, 9, 8], [3, 2], [2, 3], [1, 0], [2, 1]),
  geometry([3, 1, 1, 1], [1, 1], [1, 1], [0, 0], [1, 1]),
  geometry([1, 4, 6, 7], [2, 3], [2, 1], [0, 2], [1, 2]),
];

describeKernels('im2col / col2im kernels', backend, (gpu, ws) => {
  it('im2col unfolds windows with stride, padding and dilation, from NCHW and NHWC layouts', async () => {
    const random = rng(1);
    for (const g of GEOMETRIES) {
      const { batch: N, inChannels: C, inHeight: H, inWidth: W } = g;
      const data = randomFloats(N * C * H * W, random);
      const nchw = ws.view(data, [N, C, H, W]);
      const nhwc = ws.view(data, [N, C, H, W], [H * W * C, 1, W * C, C]);
      for (const x of [nchw, nhwc]) {
        const rows = N * g.outHeight * g.outWidth;
        const cols = C * g.kernelHeight * g.kernelWidth;
        const out = ws.output('float32', [rows, cols]);
        gpu.im2col(x.view, g, out);
        const expected = new Float32Array(rows * cols);
        forEachTap(g, (flat, _col, n, c, ih, iw) => (expected[flat] = at(x, [n, c, ih, iw])));
        expectEqual(await ws.read(out), expected);
      }
    }
  });

  it('col2im sums every column element back onto its pixel (contiguous and transposed columns)', async () => {
    const random = rng(2);
    for (const g of GEOMETRIES) {
      const rows = g.batch * g.outHeight * g.outWidth;
      const cols = g.inChannels * g.kernelHeight * g.kernelWidth;
      const data = randomFloats(rows * cols, random);
      const views = [ws.view(data, [rows, cols]), ws.view(data, [rows, cols], [1, rows])];
      for (const columns of views) {
        const { batch: N, inChannels: C, inHeight: H, inWidth: W } = g;
        const out = ws.output('float32', [N, C, H, W]);
        gpu.col2im(columns.view, g, out);
        const expected = new Float64Array(N * C * H * W);
        forEachTap(g, (flat, col, n, c, ih, iw) => {
          const row = Math.floor(flat / cols);
          expected[((n * C + c) * H + ih) * W + iw] += at(columns, [row, col]);
        });
        expectClose(await ws.read(out), expected, { rel: 1e-6, abs: 1e-6 });
      }
    }
  });
});
