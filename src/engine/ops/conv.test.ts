import { describe, expect, it } from 'vitest';
import * as ops from '.';
import type { Device } from '../devices/device';
import { testDevices } from '../testing/devices';
import { checkOp } from '../testing/harness';
import type { WebGPUBackend } from '../backends/webgpu';
import { conv2d, maxPool2d } from '../testing/reference';

const devices = await testDevices();

type ConvCase = [
  string,
  number[],
  number[],
  boolean,
  [number, number],
  [number, number],
  [number, number],
];

const convCases: ConvCase[] = [
  ['1x1 kernel', [1, 1, 3, 3], [2, 1, 1, 1], true, [1, 1], [0, 0], [1, 1]],
  ['3x3 with bias', [2, 3, 5, 6], [4, 3, 3, 3], true, [1, 1], [0, 0], [1, 1]],
  ['padding', [1, 2, 5, 5], [3, 2, 3, 3], false, [1, 1], [1, 1], [1, 1]],
  ['stride 2, odd size', [2, 1, 7, 7], [2, 1, 3, 3], true, [2, 2], [1, 1], [1, 1]],
  ['dilation 2', [1, 2, 7, 6], [2, 2, 3, 2], true, [1, 1], [0, 1], [2, 2]],
  ['rectangular kernel and strides', [1, 3, 6, 9], [2, 3, 2, 4], true, [2, 3], [1, 0], [1, 1]],
  // Unpadded: read in place where the backend has implicit GEMM (WebGPU), with K = 54 taps (four
  // at a time plus a tail) and edge tiles along both output dimensions.
  ['unpadded, wider layer', [2, 6, 8, 7], [20, 6, 3, 3], true, [1, 1], [0, 0], [1, 1]],
  ['unpadded, strided and dilated', [2, 3, 9, 8], [5, 3, 3, 2], false, [2, 1], [0, 0], [1, 2]],
];

/** conv2d of one case on `device`: values against the reference, gradients by differences. */
function checkConv(
  device: Device,
  ...[xs, ws, bias, stride, padding, dilation]: Tail<ConvCase>
): Promise<void> {
  const inputs = [{ shape: xs }, { shape: ws }, ...(bias ? [{ shape: [ws[0]] }] : [])];
  return checkOp(
    device,
    {
      inputs,
      engine: ([x, w, b]) => ops.conv2d(x, w, b ?? null, { stride, padding, dilation }),
      reference: ([x, w, b]) => conv2d(x, w, b ?? null, stride, padding, dilation),
    },
    'conv2d',
  );
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

// WebGPU splits a large padded convolution into windows of its output (conv-windows.ts); forced
// here on small ones, whose input gradients (full convolutions) and padded forwards take it.
const gpuDevice = devices.find((d) => d.kind === 'gpu');
describe.skipIf(!gpuDevice)('conv2d split into windows (WebGPU)', () => {
  it.each(convCases.filter((c) => c[0] !== '1x1 kernel'))(
    '%s: values and gradients',
    async (_name, ...rest) => {
      const backend = gpuDevice!.realBackend as WebGPUBackend;
      backend.overrides.convWindows = 'split';
      try {
        await checkConv(gpuDevice!, ...rest);
      } finally {
        backend.overrides.convWindows = undefined;
      }
    },
  );
});

describe.each(devices.map((d) => [d.name, d] as const))(
  'convolution and pooling on %s',
  (_, device) => {
    it.each(convCases)('conv2d: %s', (_name, ...rest) => checkConv(device, ...rest));

    it('conv1d is conv2d over one row', async () => {
      await checkOp(
        device,
        {
          inputs: [{ shape: [2, 3, 11] }, { shape: [4, 3, 3] }, { shape: [4] }],
          engine: ([x, w, b]) => ops.conv1d(x, w, b, { stride: 2, padding: 1 }),
          reference: ([x, w, b]) => {
            const y = conv2d(
              { shape: [2, 3, 1, 11], data: x.data },
              { shape: [4, 3, 1, 3], data: w.data },
              b,
              [1, 2],
              [0, 1],
              [1, 1],
            );
            return { shape: [2, 4, y.shape[3]], data: y.data };
          },
        },
        'conv1d',
      );
    });

    it('conv1d reads a transposed input in place (an embedding [N, L, D] as [N, D, L])', async () => {
      await checkOp(
        device,
        {
          inputs: [{ shape: [3, 13, 5] }, { shape: [9, 5, 3] }, { shape: [9] }],
          engine: ([x, w, b]) => ops.conv1d(ops.transpose(x, 1, 2), w, b),
          reference: ([x, w, b]) => {
            // The reference transposes explicitly: [3, 13, 5] → [3, 5, 1, 13].
            const t = new Float64Array(x.data.length);
            for (let n = 0; n < 3; n++)
              for (let l = 0; l < 13; l++)
                for (let d = 0; d < 5; d++) t[(n * 5 + d) * 13 + l] = x.data[(n * 13 + l) * 5 + d];
            const y = conv2d(
              { shape: [3, 5, 1, 13], data: t },
              { shape: [9, 5, 1, 3], data: w.data },
              b,
              [1, 1],
              [0, 0],
              [1, 1],
            );
            return { shape: [3, 9, y.shape[3]], data: y.data };
          },
        },
        'conv1d',
      );
    });

    it('conv2d explains a channel mismatch', () => {
      const x = ops.zeros([8, 1, 28, 28], { device });
      const w = ops.zeros([16, 3, 3, 3], { device });
      expect(() => ops.conv2d(x, w, null)).toThrow(
        'conv2d: weight [16, 3, 3, 3] expects input with 3 channels, but got input [8, 1, 28, 28] with 1 channels',
      );
    });

    it.each([
      [
        [1, 2, 4, 4],
        [2, 2],
        [2, 2],
        [0, 0],
      ],
      // 2 x 2 windows at stride 2 (WebGPU's loop-free form): odd sizes leave a last row and
      // column no window reads (backward then zeroes them in its general form); even ones tile.
      [
        [2, 3, 7, 9],
        [2, 2],
        [2, 2],
        [0, 0],
      ],
      [
        [3, 2, 6, 10],
        [2, 2],
        [2, 2],
        [0, 0],
      ],
      [
        [2, 3, 7, 5],
        [3, 3],
        [2, 2],
        [1, 1],
      ],
      [
        [1, 1, 6, 7],
        [2, 3],
        [1, 2],
        [0, 1],
      ],
    ] as [number[], [number, number], [number, number], [number, number]][])(
      'maxPool2d of %j, kernel %j, stride %j, padding %j',
      async (shape, k, s, p) => {
        await checkOp(
          device,
          {
            inputs: [{ shape }],
            engine: ([x]) => ops.maxPool2d(x, k, { stride: s, padding: p }),
            reference: ([x]) => {
              const oh = Math.floor((shape[2] + 2 * p[0] - k[0]) / s[0]) + 1;
              const ow = Math.floor((shape[3] + 2 * p[1] - k[1]) / s[1]) + 1;
              return maxPool2d(x, oh, ow, (axis, i) => [
                i * s[axis] - p[axis],
                i * s[axis] - p[axis] + k[axis],
              ]);
            },
          },
          'maxPool2d',
        );
      },
    );

    it.each([
      [
        [1, 2, 7, 5],
        [3, 2],
      ],
      [
        [2, 1, 4, 4],
        [4, 4],
      ],
      [
        [1, 3, 5, 9],
        [1, 1],
      ],
      [
        [2, 3, 6, 8],
        [3, 4],
      ],
    ] as [number[], [number, number]][])('adaptiveMaxPool2d of %j to %j', async (shape, out) => {
      await checkOp(
        device,
        {
          inputs: [{ shape }],
          engine: ([x]) => ops.adaptiveMaxPool2d(x, out),
          reference: ([x]) =>
            maxPool2d(x, out[0], out[1], (axis, i) => [
              Math.floor((i * shape[2 + axis]) / out[axis]),
              Math.ceil(((i + 1) * shape[2 + axis]) / out[axis]),
            ]),
        },
        'adaptiveMaxPool2d',
      );
    });

    it('maxPool1d pools along the last dim', async () => {
      await checkOp(
        device,
        {
          inputs: [{ shape: [2, 3, 10] }],
          engine: ([x]) => ops.maxPool1d(x, 3, { stride: 2 }),
          reference: ([x]) => {
            const y = maxPool2d({ shape: [2, 3, 1, 10], data: x.data }, 1, 4, (axis, i) =>
              axis === 0 ? [0, 1] : [i * 2, i * 2 + 3],
            );
            return { shape: [2, 3, 4], data: y.data };
          },
        },
        'maxPool1d',
      );
    });
  },
);
