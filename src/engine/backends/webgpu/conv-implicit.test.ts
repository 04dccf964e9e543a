import { describe, expect, it } from 'vitest';
import type { Conv2dGeometry } from '../../backend';
import { createNodeGpuBackend, nodeGpuBackend } from '../../testing/node-gpu';
import { tapSpans } from './conv-windows';
import {
  describeKernels,
  at,
  expectClose,
  randomFloats,
  rng,
  Workspace,
  type HostView,
} from './test-support';
import { blockedSpecOf, type MatmulVariant } from './variants';
import { convGeometry as geometry } from '../../testing/conv-geometry';

const backend = await nodeGpuBackend();

const GEOMETRIES: [string, Conv2dGeometry][] = [
  // 9 images: the weight gradient's few outputs make the image sum run as parallel pieces.
  ['3x3 over 9 images', geometry([9, 5, 8, 7], [3, 3])],
  ['strided, dilated, rectangular', geometry([2, 3, 11, 10], [2, 3], [2, 1], [0, 0], [1, 2])],
  ['one row (conv1d), 4 taps', geometry([5, 7, 1, 30], [1, 4])],
  // Padded: windows reach past the image on every side (zeros there).
  ['padded 3x3 ("same")', geometry([6, 4, 7, 6], [3, 3], [1, 1], [1, 1])],
  ['padded, strided, dilated', geometry([3, 3, 9, 8], [3, 2], [2, 3], [2, 1], [2, 1])],
  ['padding wider than the kernel reach', geometry([2, 2, 3, 4], [2, 2], [1, 1], [3, 2])],
];

/** Float64 conv2d of x (any layout, zeros in the padding) with weight [O, C, kH, kW] and bias, NCHW out. */
function reference(x: HostView, w: Float32Array, bias: Float32Array, g: Conv2dGeometry, o: number) {
  const out = new Float64Array(g.batch * o * g.outHeight * g.outWidth);
  const taps = g.inChannels * g.kernelHeight * g.kernelWidth;
  let i = 0;
  for (let n = 0; n < g.batch; n++)
    for (let co = 0; co < o; co++)
      for (let oh = 0; oh < g.outHeight; oh++)
        for (let ow = 0; ow < g.outWidth; ow++) {
          let sum = bias[co];
          for (let t = 0; t < taps; t++) {
            const c = Math.floor(t / (g.kernelHeight * g.kernelWidth));
            const kh = Math.floor(t / g.kernelWidth) % g.kernelHeight;
            const kw = t % g.kernelWidth;
            const ih = oh * g.strideH - g.padH + kh * g.dilationH;
            const iw = ow * g.strideW - g.padW + kw * g.dilationW;
            if (ih < 0 || iw < 0 || ih >= g.inHeight || iw >= g.inWidth) continue;
            sum += w[co * taps + t] * at(x, [n, c, ih, iw]);
          }
          out[i++] = sum;
        }
  return out;
}

/** Float64 weight gradient [O, taps] = Σ_n Σ_pixels grad[n, co, p] · x[n, tap at p]. */
function weightGradReference(x: HostView, grad: Float32Array, g: Conv2dGeometry, o: number) {
  const taps = g.inChannels * g.kernelHeight * g.kernelWidth;
  const pixels = g.outHeight * g.outWidth;
  const out = new Float64Array(o * taps);
  for (let co = 0; co < o; co++)
    for (let t = 0; t < taps; t++) {
      const c = Math.floor(t / (g.kernelHeight * g.kernelWidth));
      const kh = Math.floor(t / g.kernelWidth) % g.kernelHeight;
      const kw = t % g.kernelWidth;
      let sum = 0;
      for (let n = 0; n < g.batch; n++)
        for (let p = 0; p < pixels; p++) {
          const ih = Math.floor(p / g.outWidth) * g.strideH - g.padH + kh * g.dilationH;
          const iw = (p % g.outWidth) * g.strideW - g.padW + kw * g.dilationW;
          if (ih < 0 || iw < 0 || ih >= g.inHeight || iw >= g.inWidth) continue;
          sum += grad[(n * o + co) * pixels + p] * at(x, [n, c, ih, iw]);
        }
      out[co * taps + t] = sum;
    }
  return out;
}

const VARIANTS: MatmulVariant[] = [
  'x16x8@4x8',
  'q16x8@4x8',
  'q8x8@8x8',
  's8x8@8x8',
  's4x4@16x4',
  'register',
];

describeKernels('implicit-GEMM convolution kernels', backend, ['matmul'], (gpu, ws) => {
  it.each(GEOMETRIES)(
    '%s: forward and weight gradient match float64 for every variant, NCHW and NHWC input',
    async (_name, g) => {
      const random = rng(7);
      const { batch: N, inChannels: C, inHeight: H, inWidth: W } = g;
      const outChannels = 6;
      const taps = C * g.kernelHeight * g.kernelWidth;
      const pixels = g.outHeight * g.outWidth;
      const data = randomFloats(N * C * H * W, random, -1, 1);
      const inputs = [
        ws.view(data, [N, C, H, W]),
        ws.view(data, [N, C, H, W], [H * W * C, 1, W * C, C]),
      ];
      const wHost = randomFloats(outChannels * taps, random, -1, 1);
      const bHost = randomFloats(outChannels, random, -1, 1);
      const gHost = randomFloats(N * outChannels * pixels, random, -1, 1);
      const weight = ws.view(wHost, [outChannels, C, g.kernelHeight, g.kernelWidth]);
      const bias = ws.view(bHost, [outChannels]);
      const grad = ws.view(gHost, [N, outChannels, g.outHeight, g.outWidth]);
      for (const x of inputs) {
        const expected = reference(x, wHost, bHost, g, outChannels);
        const expectedGrad = weightGradReference(x, gHost, g, outChannels);
        for (const variant of VARIANTS) {
          gpu.overrides.matmul = variant;
          const out = ws.output('float32', [N, outChannels, g.outHeight, g.outWidth]);
          gpu.conv2d(x.view, weight.view, bias.view, g, out);
          expectClose(await ws.read(out), expected, { rel: 1e-4, abs: 1e-4 });
          const dw = ws.output('float32', [outChannels, taps]);
          gpu.conv2dWeightGrad(x.view, grad.view, g, dw);
          expectClose(await ws.read(dw), expectedGrad, { rel: 1e-4, abs: 1e-4 });
        }
      }
    },
  );
});

describe('tapSpans', () => {
  const spans = (...args: Parameters<typeof tapSpans>) =>
    tapSpans(...args)?.map((s) => [s.start, s.count, s.lo, s.hi]) ?? null;

  it('groups output positions by the taps that stay in the image, then merges the cheapest neighbours', () => {
    // A "full" convolution along one axis: 9 inputs, 5 taps, padding 4, 13 outputs. Position o
    // reads input o - 4 + t, in the image for t in [max(0, 4 - o), min(4, 12 - o)].
    expect(spans(13, 9, 1, 4, 1, 5, 13)).toEqual([
      [0, 1, 4, 4],
      [1, 1, 3, 4],
      [2, 1, 2, 4],
      [3, 1, 1, 4],
      [4, 5, 0, 4],
      [9, 1, 0, 3],
      [10, 1, 0, 2],
      [11, 1, 0, 1],
      [12, 1, 0, 0],
    ]);
    // Five spans: every merge here adds one position x tap of work, so the leftmost pair merges
    // first; 49 positions x taps are left of the unsplit 65 (45 in the image).
    expect(spans(13, 9, 1, 4, 1, 5, 5)).toEqual([
      [0, 2, 3, 4],
      [2, 2, 1, 4],
      [4, 6, 0, 4],
      [10, 2, 0, 2],
      [12, 1, 0, 0],
    ]);
    // Stride 2, dilation 2, padding 3: o reads 2o - 3 + 2t of 10 inputs, 3 taps (o = 0: -3, -1, 1;
    // o = 1: -1, 1, 3; o = 5: 7, 9, 11).
    expect(spans(6, 10, 2, 3, 2, 3, 6)).toEqual([
      [0, 1, 2, 2],
      [1, 1, 1, 2],
      [2, 3, 0, 2],
      [5, 1, 0, 1],
    ]);
    // A window wholly in the padding (padding wider than the kernel's reach): no split.
    expect(spans(6, 2, 1, 3, 1, 2, 5)).toBeNull();
  });
});

describeKernels(
  'padded convolutions split into windows',
  backend,
  ['matmul', 'convWindows'],
  (gpu, ws) => {
    const PADDED: [string, Conv2dGeometry, number][] = [
      // An input gradient's shape: a full convolution (padding = the kernel's reach - 1).
      ['full 3x4 convolution', geometry([5, 6, 6, 7], [3, 4], [1, 1], [2, 3]), 25],
      ['padded 3x3 ("same")', geometry([6, 4, 7, 6], [3, 3], [1, 1], [1, 1]), 9],
      ['padded, strided, dilated', geometry([3, 3, 9, 8], [3, 2], [2, 3], [2, 1], [2, 1]), 6],
    ];

    it.each(PADDED)(
      '%s: every window product writes its pixels, matching float64 and the whole product',
      async (_name, g, windows) => {
        const random = rng(23);
        const { batch: N, inChannels: C, inHeight: H, inWidth: W } = g;
        const outChannels = 7;
        const taps = C * g.kernelHeight * g.kernelWidth;
        const data = randomFloats(N * C * H * W, random, -1, 1);
        const x = ws.view(data, [N, C, H, W], [H * W * C, 1, W * C, C]);
        const wHost = randomFloats(outChannels * taps, random, -1, 1);
        const bHost = randomFloats(outChannels, random, -1, 1);
        const weight = ws.view(wHost, [outChannels, C, g.kernelHeight, g.kernelWidth]);
        const bias = ws.view(bHost, [outChannels]);
        const expected = reference(x, wHost, bHost, g, outChannels);
        for (const variant of [undefined, 'q16x8@4x8', 's4x4@16x4'] as const) {
          gpu.overrides.matmul = variant;
          const outputs = [];
          for (const choice of ['split', 'whole'] as const) {
            gpu.overrides.convWindows = choice;
            const out = ws.output('float32', [N, outChannels, g.outHeight, g.outWidth]);
            const before = gpu.context.queue.dispatches;
            gpu.conv2d(x.view, weight.view, bias.view, g, out);
            // Split: a product per window, plus one gather of the windows' weights, plus the pad.
            expect(gpu.context.queue.dispatches - before).toBe(
              choice === 'split' ? windows + 2 : 2,
            );
            outputs.push(await ws.read(out));
            expectClose(outputs.at(-1)!, expected, { rel: 1e-4, abs: 1e-4 });
          }
          expectClose(outputs[0], Float64Array.from(outputs[1]), { rel: 1e-5, abs: 1e-5 });
        }
      },
    );

    it('splits a large full convolution by itself, and keeps a small one whole', async () => {
      const random = rng(29);
      // 16 images of 16 x 9 x 9, 32 filters of 5 x 5, padded by 4: 16.6 M multiply-adds with
      // padding zeros, 8.6 M of them saved by 5 x 5 windows.
      const big = geometry([16, 16, 9, 9], [5, 5], [1, 1], [4, 4]);
      const small = geometry([2, 16, 9, 9], [5, 5], [1, 1], [4, 4]);
      // A forced variant: no tuning run among the counted dispatches.
      gpu.overrides.matmul = 'q16x8@4x8';
      for (const [g, windows] of [
        [big, 25],
        [small, 1],
      ] as const) {
        const x = ws.view(randomFloats(g.batch * 16 * 81, random, -1, 1), [g.batch, 16, 9, 9]);
        const wHost = randomFloats(32 * 16 * 25, random, -1, 1);
        const weight = ws.view(wHost, [32, 16, 5, 5]);
        const out = ws.output('float32', [g.batch, 32, 13, 13]);
        const before = gpu.context.queue.dispatches;
        gpu.conv2d(x.view, weight.view, null, g, out);
        expect(gpu.context.queue.dispatches - before).toBe(windows === 1 ? 2 : windows + 2);
        expectClose(await ws.read(out), reference(x, wHost, new Float32Array(32), g, 32), {
          rel: 1e-4,
          abs: 1e-4,
        });
      }
    });
  },
);

describe.skipIf(!backend)('tuning the implicit-GEMM convolution', () => {
  it('times only the blocked family (the one that reads offset tables) on the product itself, and runs its choice', async () => {
    const gpu = (await createNodeGpuBackend())!;
    gpu.setTuningPolicy('first-use');
    const ws = new Workspace(gpu);
    const random = rng(17);
    // 8 images of 8 x 16 x 16, 16 filters of 3 x 3: 1568 x 72 x 16, enough multiply-adds to tune;
    // the weight gradient 16 x 72, summed over 8 images of 196 pixels.
    const g = geometry([8, 8, 16, 16], [3, 3]);
    const outChannels = 16;
    const taps = g.inChannels * g.kernelHeight * g.kernelWidth;
    const pixels = g.outHeight * g.outWidth;
    const x = ws.view(randomFloats(8 * 8 * 16 * 16, random, -1, 1), [8, 8, 16, 16]);
    const wHost = randomFloats(outChannels * taps, random, -1, 1);
    const bHost = randomFloats(outChannels, random, -1, 1);
    const gHost = randomFloats(8 * outChannels * pixels, random, -1, 1);
    const weight = ws.view(wHost, [outChannels, 8, 3, 3]);
    const bias = ws.view(bHost, [outChannels]);
    const grad = ws.view(gHost, [8, outChannels, g.outHeight, g.outWidth]);
    const expected = reference(x, wHost, bHost, g, outChannels);
    const expectedGrad = weightGradReference(x, gHost, g, outChannels);
    const out = ws.output('float32', [8, outChannels, g.outHeight, g.outWidth]);
    const dw = ws.output('float32', [outChannels, taps]);
    const both = () => {
      gpu.conv2d(x.view, weight.view, bias.view, g, out);
      gpu.conv2dWeightGrad(x.view, grad.view, g, dw);
    };
    both();
    expectClose(await ws.read(out), expected, { rel: 1e-4, abs: 1e-4 });
    expectClose(await ws.read(dw), expectedGrad, { rel: 1e-4, abs: 1e-4 });
    await gpu.tuned();
    const runs = gpu.context.tuneLog.filter((run) => run.key.startsWith('mm|'));
    // Classes of their own: a gathered product is timed on a slice of itself, not on a proxy.
    expect(runs.map((run) => run.key)).toEqual([
      'mm|2048x16x128|kk|single|blocked|gather',
      'mm|16x128x256|kn|sum|gather',
    ]);
    const stop = gpu.profileDispatches();
    both();
    const labels = (await stop()).map((t) => t.label);
    expectClose(await ws.read(out), expected, { rel: 1e-4, abs: 1e-4 });
    expectClose(await ws.read(dw), expectedGrad, { rel: 1e-4, abs: 1e-4 });
    for (const run of runs) {
      const timed = run.results.map((r) => r.variant as MatmulVariant);
      expect(timed.length).toBeGreaterThan(1);
      for (const variant of timed) expect(blockedSpecOf(variant), variant).not.toBeNull();
      // Every candidate's slice agreed with the default variant's (a wrong kernel would not).
      for (const result of run.results) expect(result.correct, result.variant).toBe(true);
      // A vec4 member reads an offset table as its scalar twin.
      const ran = gpu.context.tuner.get(run.key)!.replace(/^v/, 's');
      expect(
        labels.some((label) => label.startsWith(`matmul-blocked[${ran}|`)),
        `${ran} in ${labels.join()}`,
      ).toBe(true);
    }
    ws.releaseAll();
  });
});
