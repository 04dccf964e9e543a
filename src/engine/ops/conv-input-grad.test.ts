/**
 * Which way the convolution op computes a stride-1 input gradient (conv-gemm.ts): as a
 * convolution of the output gradient where the backend offers `inputGradAsConvolution` (WebGPU),
 * else as a columns product folded back by col2im (the CPU, where the other way was ~1.7× slower
 * on the CNN step). Both give the same gradient: checked against a float64 direct sum here.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../backend';
import { testDevices } from '../testing/devices';
import { conv2d } from './conv';
import * as ops from './index';
import type { Tensor } from '../tensor';

const devices = await testDevices();

describe.each(devices.map((d) => [d.name, d] as const))(
  'conv input gradient on %s',
  (_, device) => {
    it('takes the way its backend prefers, with the same values', async () => {
      const backend = device.realBackend as Backend;
      const calls = { conv2d: 0, col2im: 0 };
      const spy = <K extends 'conv2d' | 'col2im'>(name: K) => {
        const original = backend[name].bind(backend) as (...args: unknown[]) => void;
        (backend as unknown as Record<K, (...args: unknown[]) => void>)[name] = (...args) => {
          calls[name]++;
          original(...args);
        };
      };
      spy('conv2d');
      spy('col2im');
      const [n, c, h, w, o, k] = [2, 3, 5, 4, 2, 3];
      const xs = Array.from({ length: n * c * h * w }, (_, i) => Math.sin(i * 0.7));
      const ws = Array.from({ length: o * c * k * k }, (_, i) => Math.cos(i * 1.3));
      const gs = Array.from({ length: n * o * h * w }, (_, i) => Math.sin(i * 0.37 + 1));
      const x = ops.fromData(xs, { device }).reshape([n, c, h, w]).requiresGrad_();
      const weight = ops.fromData(ws, { device }).reshape([o, c, k, k]);
      try {
        const y = conv2d(x, weight, null, { padding: [1, 1] });
        y.backward(ops.fromData(gs, { device }).reshape([n, o, h, w]));
      } finally {
        delete (backend as Partial<Backend>).conv2d;
        delete (backend as Partial<Backend>).col2im;
      }
      const preferred = backend.capability('inputGradAsConvolution') !== null;
      expect(calls).toEqual(preferred ? { conv2d: 2, col2im: 0 } : { conv2d: 1, col2im: 1 });
      expect(preferred).toBe(device.kind !== 'cpu');
      // dx[b, ci, i, j] = Σ g[b, co, i', j'] · w[co, ci, i − i' + 1, j − j' + 1] over the window.
      const dx = Array.from(await (x.grad as Tensor).data());
      for (let b = 0; b < n; b++)
        for (let ci = 0; ci < c; ci++)
          for (let i = 0; i < h; i++)
            for (let j = 0; j < w; j++) {
              let sum = 0;
              for (let co = 0; co < o; co++)
                for (let p = 0; p < h; p++)
                  for (let q = 0; q < w; q++) {
                    const [ki, kj] = [i - p + 1, j - q + 1];
                    if (ki < 0 || ki >= k || kj < 0 || kj >= k) continue;
                    sum +=
                      gs[((b * o + co) * h + p) * w + q] * ws[((co * c + ci) * k + ki) * k + kj];
                  }
              expect(dx[((b * c + ci) * h + i) * w + j]).toBeCloseTo(sum, 4);
            }
    });
  },
);
