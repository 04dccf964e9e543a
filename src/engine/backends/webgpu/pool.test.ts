import { it } from 'vitest';
import type { Pool2dGeometry } from '../../backend';
import { adaptivePoolGeometry, windowPoolGeometry } from '../../ops/pool';
import { nodeGpuBackend } from '../../testing/node-gpu';
import {
  describeKernels,
  at,
  expectClose,
  expectEqual,
  randomFloats,
  rng,
  type HostView,
} from './test-support';

const backend = await nodeGpuBackend();

/** k x k windows at `stride`, padded by `pad`, over [batch, channels, inHeight, inWidth]. */
function plain(
  batch: number,
  channels: number,
  inHeight: number,
  inWidth: number,
  k: number,
  stride: number,
  pad: number,
): Pool2dGeometry {
  return windowPoolGeometry(
    [batch, channels, inHeight, inWidth],
    [k, k],
    [stride, stride],
    [pad, pad],
  );
}

function adaptive(
  batch: number,
  channels: number,
  inHeight: number,
  inWidth: number,
  outHeight: number,
  outWidth: number,
): Pool2dGeometry {
  return adaptivePoolGeometry([batch, channels, inHeight, inWidth], [outHeight, outWidth]);
}

const GEOMETRIES: Pool2dGeometry[] = [
  // 2 x 2 at stride 2 takes the loop-free WINDOW2X2 forms (8 x 6 and 4 x 40 tile the input; 9 x 7
  // and 2 x 27 leave a row or column to the general backward).
  plain(2, 3, 8, 6, 2, 2, 0),
  plain(1, 2, 7, 9, 3, 2, 1),
  plain(3, 1, 5, 5, 3, 1, 1),
  adaptive(2, 3, 7, 5, 3, 2),
  adaptive(1, 2, 6, 6, 4, 6),
  adaptive(1, 1, 9, 4, 1, 1),
  // Disjoint windows (the one-invocation-per-window backward) with uncovered last rows/columns.
  plain(2, 3, 9, 7, 2, 2, 0),
  plain(1, 2, 8, 11, 3, 3, 0),
  adaptive(2, 2, 8, 6, 4, 3),
  // A wide row (20 outputs: five runs of an invocation's four, the last one full) and an odd one.
  plain(2, 2, 4, 40, 2, 2, 0),
  plain(1, 3, 2, 27, 2, 2, 0),
];

/** [start, end) of window o along an axis (clipped to the input). */
function window(
  g: Pool2dGeometry,
  o: number,
  size: number,
  out: number,
  k: number,
  stride: number,
  pad: number,
): [number, number] {
  if (g.adaptive) return [Math.floor((o * size) / out), Math.ceil(((o + 1) * size) / out)];
  const start = o * stride - pad;
  return [Math.max(start, 0), Math.min(start + k, size)];
}

function referencePool(
  g: Pool2dGeometry,
  x: HostView,
): { values: Float32Array; indices: Int32Array } {
  const n = g.batch * g.channels * g.outHeight * g.outWidth;
  const values = new Float32Array(n);
  const indices = new Int32Array(n);
  let i = 0;
  for (let b = 0; b < g.batch; b++)
    for (let c = 0; c < g.channels; c++)
      for (let oh = 0; oh < g.outHeight; oh++)
        for (let ow = 0; ow < g.outWidth; ow++, i++) {
          const [h0, h1] = window(
            g,
            oh,
            g.inHeight,
            g.outHeight,
            g.kernelHeight,
            g.strideH,
            g.padH,
          );
          const [w0, w1] = window(g, ow, g.inWidth, g.outWidth, g.kernelWidth, g.strideW, g.padW);
          let best = -Infinity;
          let bestAt = -1;
          for (let h = h0; h < h1; h++)
            for (let w = w0; w < w1; w++) {
              const v = at(x, [b, c, h, w]);
              if (bestAt < 0 || v > best) {
                best = v;
                bestAt = h * g.inWidth + w;
              }
            }
          values[i] = best;
          indices[i] = bestAt;
        }
  return { values, indices };
}

describeKernels('max pooling kernels', backend, (gpu, ws) => {
  it('finds each window maximum and its first flat position (plain, padded, adaptive, NHWC)', async () => {
    const random = rng(1);
    for (const g of GEOMETRIES) {
      const { batch: N, channels: C, inHeight: H, inWidth: W } = g;
      // Coarse values make ties likely, so "first occurrence" is exercised.
      const data = randomFloats(N * C * H * W, random).map((v) => Math.round(v * 2) / 2);
      for (const x of [
        ws.view(data, [N, C, H, W]),
        ws.view(data, [N, C, H, W], [H * W * C, 1, W * C, C]),
      ]) {
        const shape = [N, C, g.outHeight, g.outWidth];
        const out = ws.output('float32', shape);
        const indices = ws.output('int32', shape);
        gpu.maxPool2d(x.view, g, out, indices);
        const expected = referencePool(g, x);
        expectEqual(await ws.read(out), expected.values);
        expectEqual(await ws.read(indices), expected.indices);
      }
    }
  });

  it('routes gradients to the recorded positions, summing overlapping windows', async () => {
    const random = rng(2);
    for (const g of GEOMETRIES) {
      const { batch: N, channels: C, inHeight: H, inWidth: W } = g;
      const x = ws.view(
        randomFloats(N * C * H * W, random).map((v) => Math.round(v)),
        [N, C, H, W],
      );
      const { indices } = referencePool(g, x);
      const shape = [N, C, g.outHeight, g.outWidth];
      const grad = ws.view(randomFloats(indices.length, random), shape);
      const index = ws.view(indices, shape);
      const out = ws.output('float32', [N, C, H, W]);
      gpu.maxPool2dBackward(grad.view, index.view, g, out);
      const expected = new Float64Array(N * C * H * W);
      const plane = g.outHeight * g.outWidth;
      for (let i = 0; i < indices.length; i++) {
        const nc = Math.floor(i / plane);
        expected[nc * H * W + indices[i]] += grad.host[i];
      }
      expectClose(await ws.read(out), expected, { rel: 1e-6, abs: 1e-6 });
    }
  });
});
