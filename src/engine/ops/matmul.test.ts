import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { testDevices } from '../testing/devices';
import { checkOp } from '../testing/harness';
import { matmul, type Ref } from '../testing/reference';

const devices = await testDevices();

function transposeLast(r: Ref): Ref {
  const [m, n] = r.shape.slice(-2);
  const batch = r.data.length / (m * n);
  const data = new Float64Array(r.data.length);
  for (let b = 0; b < batch; b++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) data[b * m * n + j * m + i] = r.data[b * m * n + i * n + j];
  return { shape: [...r.shape.slice(0, -2), n, m], data };
}

const shapes: [number[], number[]][] = [
  [
    [1, 1],
    [1, 1],
  ],
  [
    [3, 5],
    [5, 7],
  ],
  [
    [7, 33],
    [33, 2],
  ],
  [
    [2, 3, 4],
    [2, 4, 5],
  ],
  [
    [2, 3, 4],
    [4, 5],
  ],
  [
    [3, 4],
    [2, 4, 5],
  ],
  [
    [2, 1, 3, 4],
    [3, 4, 2],
  ],
  [
    [17, 9],
    [9, 65],
  ],
];

describe.each(devices.map((d) => [d.name, d] as const))('matmul on %s', (_, device) => {
  it.each(shapes)('%j @ %j matches float64 and finite differences', async (sa, sb) => {
    await checkOp(
      device,
      {
        inputs: [{ shape: sa }, { shape: sb }],
        engine: ([a, b]) => ops.matmul(a, b),
        reference: ([a, b]) => matmul(a, b),
      },
      'matmul',
    );
  });

  it('multiplies transposed (strided) operands', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [5, 3] }, { shape: [4, 5] }],
        engine: ([a, b]) => ops.matmul(ops.t(a), ops.t(b)),
        reference: ([a, b]) => matmul(transposeLast(a), transposeLast(b)),
      },
      'matmul of transposes',
    );
  });

  it('handles 1-D operands like torch.matmul', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [6] }, { shape: [6] }],
        engine: ([a, b]) => ops.matmul(a, b),
        reference: ([a, b]) => {
          let s = 0;
          for (let i = 0; i < 6; i++) s += a.data[i] * b.data[i];
          return { shape: [], data: Float64Array.of(s) };
        },
      },
      'dot',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 6] }, { shape: [6] }],
        engine: ([a, b]) => ops.matmul(a, b),
        reference: ([a, b]) => {
          const r = matmul(a, { shape: [6, 1], data: b.data });
          return { shape: [3], data: r.data };
        },
      },
      'matrix-vector',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [6] }, { shape: [6, 2] }],
        engine: ([a, b]) => ops.matmul(a, b),
        reference: ([a, b]) => {
          const r = matmul({ shape: [1, 6], data: a.data }, b);
          return { shape: [2], data: r.data };
        },
      },
      'vector-matrix',
    );
  });

  it('names both shapes when inner dimensions differ', () => {
    const a = ops.zeros([2, 3], { device });
    const b = ops.zeros([4, 5], { device });
    expect(() => ops.matmul(a, b)).toThrow(
      'matmul: cannot multiply [2, 3] by [4, 5]: inner dimensions 3 and 4 differ',
    );
  });

  it('says an int tensor needs to be float', () => {
    const a = ops.arange(0, 6, 1, { device });
    expect(() => ops.matmul(ops.reshape(a, [2, 3]), ops.zeros([3, 2], { device }))).toThrow(
      'matmul: expected a float32 first argument, got int32; convert it with .float() first',
    );
  });
});
