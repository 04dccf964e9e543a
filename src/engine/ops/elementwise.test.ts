import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { testDevices } from '../testing/devices';
import { checkOp, intTensorOf, type Domain } from '../testing/harness';
import { map, zip } from '../testing/reference';

const devices = await testDevices();

const sigmoid = (v: number): number => 1 / (1 + Math.exp(-v));

const unaryCases: [
  string,
  (x: ops.Operand & object) => ReturnType<typeof ops.exp>,
  (v: number) => number,
  Domain,
][] = [
  ['neg', ops.neg, (v) => -v, 'any'],
  ['exp', ops.exp, Math.exp, 'any'],
  ['log', ops.log, Math.log, 'positive'],
  ['sqrt', ops.sqrt, Math.sqrt, 'positive'],
  ['rsqrt', ops.rsqrt, (v) => 1 / Math.sqrt(v), 'positive'],
  ['abs', ops.abs, Math.abs, 'any'],
  ['square', ops.square, (v) => v * v, 'any'],
  ['reciprocal', ops.reciprocal, (v) => 1 / v, 'any'],
  ['relu', ops.relu, (v) => Math.max(v, 0), 'any'],
  ['sigmoid', ops.sigmoid, sigmoid, 'any'],
  ['tanh', ops.tanh, Math.tanh, 'any'],
];

const binaryCases: [
  string,
  (a: ops.Operand, b: ops.Operand) => ReturnType<typeof ops.add>,
  (a: number, b: number) => number,
  Domain,
][] = [
  ['add', ops.add, (a, b) => a + b, 'any'],
  ['sub', ops.sub, (a, b) => a - b, 'any'],
  ['mul', ops.mul, (a, b) => a * b, 'any'],
  ['div', ops.div, (a, b) => a / b, 'any'],
  ['pow', ops.pow, (a, b) => Math.pow(a, b), 'positive'],
  ['maximum', ops.maximum, (a, b) => Math.max(a, b), 'any'],
  ['minimum', ops.minimum, (a, b) => Math.min(a, b), 'any'],
];

/** Shape pairs: equal, odd sizes, broadcasting both ways, a scalar tensor, leading dims. */
const shapePairs: [number[], number[]][] = [
  [[7], [7]],
  [[33], [1]],
  [[3, 5], [5]],
  [
    [4, 1, 3],
    [2, 1],
  ],
  [
    [1, 7],
    [6, 1],
  ],
  [[], [2, 3]],
];

describe.each(devices.map((d) => [d.name, d] as const))('element-wise ops on %s', (_, device) => {
  for (const [name, op, f, domain] of unaryCases) {
    it.each([[[1]], [[7]], [[3, 33]], [[2, 3, 4]]])(
      `${name} of shape %j matches float64 and finite differences`,
      async (shape) => {
        await checkOp(
          device,
          { inputs: [{ shape, domain }], engine: ([x]) => op(x), reference: ([x]) => map(x, f) },
          name,
        );
      },
    );
  }

  for (const [name, op, f, domain] of binaryCases) {
    it.each(shapePairs)(`${name} of %j and %j broadcasts and differentiates`, async (sa, sb) => {
      await checkOp(
        device,
        {
          inputs: [
            { shape: sa, domain },
            { shape: sb, domain },
          ],
          engine: ([a, b]) => op(a, b),
          reference: ([a, b]) => zip(a, b, f),
        },
        name,
      );
    });
    it(`${name} with a number on either side`, async () => {
      const s = domain === 'positive' ? 1.5 : -1.25;
      await checkOp(
        device,
        {
          inputs: [{ shape: [3, 4], domain }],
          engine: ([a]) => op(a, s),
          reference: ([a]) => map(a, (v) => f(v, s)),
        },
        `${name}(x, s)`,
      );
      await checkOp(
        device,
        {
          inputs: [{ shape: [5], domain }],
          engine: ([a]) => op(s === -1.25 ? 2.5 : s, a),
          reference: ([a]) => map(a, (v) => f(s === -1.25 ? 2.5 : s, v)),
        },
        `${name}(s, x)`,
      );
    });
  }

  it('differentiates through a transposed (strided) input', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [4, 3] }, { shape: [3, 4] }],
        engine: ([a, b]) => ops.mul(ops.transpose(a, 0, 1), b),
        reference: ([a, b]) => {
          const at = { shape: [3, 4], data: new Float64Array(12) };
          for (let i = 0; i < 4; i++)
            for (let j = 0; j < 3; j++) at.data[j * 4 + i] = a.data[i * 3 + j];
          return zip(at, b, (x, y) => x * y);
        },
      },
      'mul of a transpose',
    );
  });

  it('compares element-wise into int32 zeros and ones', async () => {
    const a = ops.fromData(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { device },
    );
    const b = ops.fromData([3, 2, 1], { device });
    const cases: [string, ReturnType<typeof ops.eq>, number[]][] = [
      ['eq', ops.eq(a, b), [0, 1, 0, 0, 0, 0]],
      ['ne', ops.ne(a, b), [1, 0, 1, 1, 1, 1]],
      ['lt', ops.lt(a, b), [1, 0, 0, 0, 0, 0]],
      ['le', ops.le(a, b), [1, 1, 0, 0, 0, 0]],
      ['gt', ops.gt(a, b), [0, 0, 1, 1, 1, 1]],
      ['ge', ops.ge(a, 5), [0, 0, 0, 0, 1, 1]],
    ];
    for (const [name, t, expected] of cases) {
      expect(t.dtype, name).toBe('int32');
      expect(Array.from(await t.data()), name).toEqual(expected);
    }
  });

  it('keeps int32 arithmetic in int32 and promotes with floats', async () => {
    const a = intTensorOf([7, -3, 2], [3], device);
    const b = intTensorOf([2, 5, -4], [3], device);
    const sum = ops.add(a, b);
    expect(sum.dtype).toBe('int32');
    expect(Array.from(await sum.data())).toEqual([9, 2, -2]);
    expect(Array.from(await ops.mul(a, b).data())).toEqual([14, -15, -8]);
    expect(Array.from(await ops.sub(a, 3).data())).toEqual([4, -6, -1]);
    const half = ops.mul(a, 0.5);
    expect(half.dtype).toBe('float32');
    expect(Array.from(await half.data())).toEqual([3.5, -1.5, 1]);
    const quotient = ops.div(a, b);
    expect(quotient.dtype).toBe('float32');
    expect(Array.from(await quotient.data())).toEqual([3.5, -0.6000000238418579, -0.5]);
    const e = ops.exp(intTensorOf([0, 1], [2], device));
    expect(e.dtype).toBe('float32');
    expect(Array.from(await e.data()).map((v) => +v.toFixed(5))).toEqual([1, 2.71828]);
  });

  it('casts float to int by truncating toward zero', async () => {
    const x = ops.fromData([2.7, -2.7, 0.4, 5], { device });
    const i = ops.cast(x, 'int32');
    expect(i.dtype).toBe('int32');
    expect(Array.from(await i.data())).toEqual([2, -2, 0, 5]);
  });

  it('names both shapes when they cannot broadcast', () => {
    const a = ops.zeros([2, 3], { device });
    const b = ops.zeros([4], { device });
    expect(() => ops.add(a, b)).toThrow('add: shapes [2, 3] and [4] cannot be broadcast together');
  });

  it('clamps values into a range', async () => {
    const x = ops.fromData([-2, -0.5, 0.5, 3], { device });
    expect(Array.from(await ops.clamp(x, -1, 1).data())).toEqual([-1, -0.5, 0.5, 1]);
  });
});
