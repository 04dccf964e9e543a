/**
 * The normalisation kernels (normalizeSlices and its backward, kernels/norm.wgsl and the CPU
 * loops) against float64 on every test device: forward values and, by finite differences, input
 * gradients, over the shapes that pick each WebGPU mode (an invocation per channel for short
 * slices, a workgroup per channel for long ones, more channels than a workgroup), inner size 1,
 * and non-contiguous and offset inputs. Also the statistics and the composed form.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '.';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { checkOp, expectClose, randomRef, rng, tensorOf } from '../testing/harness';
import { ref, type Ref } from '../testing/reference';
import { normalizeSlices, normalizeSlicesComposed } from './norm';

const devices = await testDevices();
const EPS = 1e-5;

/** Float64 normalisation of [A, C, B] per channel; also the means and biased variances. */
function reference(x: Ref, eps = EPS): { y: Ref; mean: number[]; variance: number[] } {
  const [outer, channels, inner] = x.shape;
  const y = new Float64Array(x.data.length);
  const means: number[] = [];
  const variances: number[] = [];
  for (let c = 0; c < channels; c++) {
    const idx: number[] = [];
    for (let a = 0; a < outer; a++)
      for (let b = 0; b < inner; b++) idx.push((a * channels + c) * inner + b);
    const mu = idx.reduce((s, i) => s + x.data[i], 0) / idx.length;
    const v = idx.reduce((s, i) => s + (x.data[i] - mu) ** 2, 0) / idx.length;
    for (const i of idx) y[i] = (x.data[i] - mu) / Math.sqrt(v + eps);
    means.push(mu);
    variances.push(v);
  }
  return { y: ref(x.shape, y), mean: means, variance: variances };
}

const shapes: [number, number, number][] = [
  [1, 5, 7], // short slices: an invocation per channel
  [3, 4, 50], // a workgroup per channel
  [2, 3, 700], // long slices over two outer blocks
  [1, 70, 3], // more channels than one workgroup of invocations
  [6, 2, 1], // inner 1 (BatchNorm1d on [N, C])
];

describe.each(devices.map((d) => [d.name, d] as const))(
  'normalisation kernels on %s',
  (_, device) => {
    it.each(shapes)('normalise [%i, %i, %i]: values and input gradient', async (...shape) => {
      await checkOp(
        device,
        {
          inputs: [{ shape }],
          engine: ([x]) => normalizeSlices(x, EPS)[0],
          reference: ([x]) => reference(x).y,
          gradRtol: 2e-3,
        },
        'normalizeSlices',
      );
    });

    it('gives the batch statistics, equal to the composed form', async () => {
      const x = randomRef([3, 4, 10], rng(7));
      const want = reference(x);
      const [y, mean, variance] = normalizeSlices(tensorOf(x, device), EPS);
      const [yc, meanc, variancec] = normalizeSlicesComposed(tensorOf(x, device), EPS);
      expectClose(await mean.data(), want.mean, 'mean');
      expectClose(await variance.data(), want.variance, 'variance');
      expectClose(await y.data(), await yc.data(), 'kernel vs composed');
      expectClose(await meanc.data(), want.mean, 'composed mean');
      expectClose(await variancec.data(), want.variance, 'composed variance');
    });

    it('reads strided and offset inputs, and a broadcast upstream gradient', async () => {
      const x = randomRef([4, 3, 5], rng(9));
      const xt = tensorOf(x, device, true);
      // A transposed, then narrowed, view: [5, 3, 3] at an offset.
      const view = ops.narrow(ops.permute(xt, [2, 1, 0]), 2, 1, 3);
      const [y] = normalizeSlices(view, EPS);
      const host = ops.contiguous(view.detach());
      const want = reference(ref(host.shape as number[], await host.data()));
      expectClose(await y.data(), want.y.data, 'strided forward');
      // sum(y) has a broadcast (stride-0) gradient of ones; its input gradient is ~0.
      y.sum().backward();
      const grad = (xt.grad as Tensor).data();
      expect(Math.max(...Array.from(await grad).map(Math.abs))).toBeLessThan(1e-4);
    });
  },
);
