import { afterEach, describe, expect, it } from 'vitest';
import type { BinaryOp, UnaryOp } from '../../backend';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import {
  at,
  expectClose,
  expectEqual,
  forEachIndex,
  product,
  randomFloats,
  randomInts,
  rng,
  Workspace,
  type HostView,
} from './test-support';

const backend = await nodeGpuBackend();

/** float64 references of the unary ops. */
const UNARY: Record<UnaryOp, (x: number) => number> = {
  copy: (x) => x,
  neg: (x) => -x,
  exp: Math.exp,
  log: Math.log,
  sqrt: Math.sqrt,
  rsqrt: (x) => 1 / Math.sqrt(x),
  abs: Math.abs,
  sign: Math.sign,
  square: (x) => x * x,
  reciprocal: (x) => 1 / x,
  relu: (x) => Math.max(x, 0),
  sigmoid: (x) => 1 / (1 + Math.exp(-x)),
  tanh: Math.tanh,
  softplus: (x) => Math.log(1 + Math.exp(x)),
  floor: Math.floor,
  step: (x) => (x > 0 ? 1 : 0),
  leakyRelu: (x) => (x > 0 ? x : 0.01 * x),
  elu: (x) => (x > 0 ? x : Math.exp(x) - 1),
  gelu: (x) => x * normalCdfSeries(x),
  geluDerivative: (x) => normalCdfSeries(x) + (x * Math.exp((-x * x) / 2)) / Math.sqrt(2 * Math.PI),
  silu: (x) => x / (1 + Math.exp(-x)),
  mish: (x) => x * Math.tanh(Math.log(1 + Math.exp(x))),
  hardtanh: (x) => Math.min(Math.max(x, -1), 1),
  relu6: (x) => Math.min(Math.max(x, 0), 6),
  hardsigmoid: (x) => Math.min(Math.max(x / 6 + 0.5, 0), 1),
  hardswish: (x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6,
  softsign: (x) => x / (1 + Math.abs(x)),
  selu: (x) => 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * (Math.exp(x) - 1)),
  logsigmoid: (x) => -Math.log(1 + Math.exp(-x)),
};

/** Φ(x) from erf's Taylor series (independent of the kernels' erfc fit; exact to ~1e-15 here). */
function normalCdfSeries(x: number): number {
  const z = x / Math.SQRT2;
  let term = z;
  let sum = z;
  for (let n = 1; n < 80; n++) {
    term *= (-z * z) / n;
    sum += term / (2 * n + 1);
  }
  return 0.5 + sum / Math.sqrt(Math.PI);
}

const BINARY: Record<BinaryOp, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  pow: (a, b) => a ** b,
  maximum: Math.max,
  minimum: Math.min,
  eq: (a, b) => +(a === b),
  ne: (a, b) => +(a !== b),
  lt: (a, b) => +(a < b),
  le: (a, b) => +(a <= b),
  gt: (a, b) => +(a > b),
  ge: (a, b) => +(a >= b),
  keepWhere: (a, b) => (b !== 0 ? a : 0),
};

/** Reference of a map over views broadcast to `shape`, in float64. */
function reference(
  shape: number[],
  inputs: HostView[],
  fn: (...v: number[]) => number,
): Float64Array {
  const out = new Float64Array(product(shape));
  forEachIndex(shape, (index, flat) => {
    out[flat] = fn(...inputs.map((input) => at(input, index)));
  });
  return out;
}

/** Positive inputs for ops whose domain needs them. */
const POSITIVE_ONLY = new Set<UnaryOp>(['log', 'sqrt', 'rsqrt']);

describe.skipIf(!backend)('elementwise kernels', () => {
  const gpu = backend as WebGPUBackend;
  const ws = new Workspace(gpu);
  afterEach(() => ws.releaseAll());

  it('fill writes the value in both dtypes, truncating toward zero for int32', async () => {
    for (const n of [1, 3, 129]) {
      const f = ws.output('float32', [n]);
      gpu.fill(f, -2.75);
      expectEqual(await ws.read(f), new Float32Array(n).fill(-2.75));
      const i = ws.output('int32', [n]);
      gpu.fill(i, -7.9);
      expectEqual(await ws.read(i), new Int32Array(n).fill(-7));
    }
    // Ranges inside a larger buffer (aligned and not): the rest keeps its values.
    for (const [offset, n] of [
      [0, 5],
      [4, 7],
      [3, 9],
    ]) {
      const target = ws.view(new Float32Array(16).fill(9), [16]);
      gpu.fill({ ...target.view, shape: [n], offset }, 0.5);
      const expected = new Float32Array(16).fill(9);
      expected.fill(0.5, offset, offset + n);
      expectEqual(await ws.read(target.view), expected);
    }
  });

  for (const op of Object.keys(UNARY) as UnaryOp[]) {
    it(`unary ${op} matches float64 on contiguous and transposed views`, async () => {
      const random = rng(op.length * 101 + 7);
      const data = POSITIVE_ONLY.has(op)
        ? randomFloats(33 * 7, random).map(Math.abs)
        : randomFloats(33 * 7, random, 0.1, 3);
      const tolerance = { rel: 2e-6, abs: 2e-6 };
      // Contiguous [65] (rank-1 fast path) and the transpose of a [33, 7] buffer (general path).
      const flat = ws.view(data.subarray(0, 65), [65]);
      const outFlat = ws.output('float32', [65]);
      gpu.unary(op, flat.view, outFlat);
      expectClose(await ws.read(outFlat), reference([65], [flat], UNARY[op]), tolerance);
      const transposed = ws.view(data, [7, 33], [1, 7]);
      const outT = ws.output('float32', [7, 33]);
      gpu.unary(op, transposed.view, outT);
      expectClose(await ws.read(outT), reference([7, 33], [transposed], UNARY[op]), tolerance);
    });
  }

  for (const op of Object.keys(BINARY) as BinaryOp[]) {
    it(`binary ${op} matches float64 with broadcast and transposed operands`, async () => {
      const random = rng(op.length * 977 + 3);
      const aData = randomFloats(7 * 33, random);
      // Share some values so eq/le/ge see equal pairs.
      const bData = randomFloats(33, random).map((v, i) => (i % 3 === 0 ? aData[i] : v));
      if (op === 'pow') {
        // Negative bases need integer exponents (else NaN, which is checked separately).
        bData.forEach((v, i) => (bData[i] = i % 2 === 0 ? Math.round(v * 2) : v));
        aData.forEach((v, i) => (aData[i] = (i % 33) % 2 === 0 ? v : Math.abs(v)));
      }
      const a = ws.view(aData, [7, 33]);
      const b = ws.view(bData, [7, 33], [0, 1]);
      const out = ws.output('float32', [7, 33]);
      gpu.binary(op, a.view, b.view, out);
      const tolerance = { rel: op === 'pow' ? 1e-5 : 1e-6, abs: 1e-6 };
      expectClose(await ws.read(out), reference([7, 33], [a, b], BINARY[op]), tolerance);
      // a transposed ([33, 7] buffer read as [7, 33]) against b broadcast down columns.
      const aT = ws.view(aData, [7, 33], [1, 7]);
      const bCol = ws.view(bData.subarray(0, 7), [7, 33], [1, 0]);
      const outT = ws.output('float32', [7, 33]);
      gpu.binary(op, aT.view, bCol.view, outT);
      expectClose(await ws.read(outT), reference([7, 33], [aT, bCol], BINARY[op]), tolerance);
    });
  }

  it('pow handles zero exponents, negative bases and fractional exponents of negatives', async () => {
    const a = ws.view(new Float32Array([0, -2, -2, -8, 3, -1.5]), [6]);
    const b = ws.view(new Float32Array([0, 3, 2, 0.5, -1, 0]), [6]);
    const out = ws.output('float32', [6]);
    gpu.binary('pow', a.view, b.view, out);
    const result = await ws.read(out);
    expectClose(result.subarray(0, 3), [1, -8, 4]);
    expect(Number.isNaN(result[3])).toBe(true);
    expectClose(result.subarray(4), [1 / 3, 1]);
  });

  it('softplus keeps its tiny values for large negative x and is x for large x', async () => {
    // Past |x| ≈ 17 a plain log(1 + e^x) rounds to 0 (or overflows past 88): float64 log1p is the
    // reference, within WGSL's exp accuracy of 3 + 2|x| ULP (down to -80: below e^-87 results are
    // subnormal, which GPUs may flush to zero).
    const data = new Float32Array([
      -80, -60, -30, -20, -17.5, -3, -1e-3, 0, 2e-4, 0.7, 9, 20, 30, 90,
    ]);
    const x = ws.view(data, [data.length]);
    const out = ws.output('float32', [data.length]);
    gpu.unary('softplus', x.view, out);
    const expected = Float64Array.from(
      data,
      (v) => Math.max(v, 0) + Math.log1p(Math.exp(-Math.abs(v))),
    );
    const got = await ws.read(out);
    got.forEach((value, i) => {
      const ulps = 3 + 2 * Math.abs(data[i]) + 2;
      expect(Math.abs(value - expected[i])).toBeLessThanOrEqual(ulps * 2 ** -23 * expected[i]);
    });
  });

  it('comparisons of float32 inputs write int32 0/1', async () => {
    const random = rng(5);
    const a = ws.view(randomFloats(129, random), [129]);
    const b = ws.view(randomFloats(129, random), [129]);
    for (const op of ['lt', 'ge', 'eq', 'ne'] as BinaryOp[]) {
      const out = ws.output('int32', [129]);
      gpu.binary(op, a.view, b.view, out);
      expectEqual(await ws.read(out), reference([129], [a, b], BINARY[op]));
    }
  });

  it('int32 arithmetic, comparisons and unary ops are exact in int32', async () => {
    const random = rng(11);
    const a = ws.view(randomInts(65, random), [65]);
    const b = ws.view(randomInts(65, random, 5), [65]);
    for (const op of ['add', 'sub', 'mul', 'maximum', 'minimum', 'eq', 'lt', 'ge'] as BinaryOp[]) {
      const out = ws.output('int32', [65]);
      gpu.binary(op, a.view, b.view, out);
      expectEqual(await ws.read(out), reference([65], [a, b], BINARY[op]));
    }
    for (const op of ['copy', 'neg', 'abs', 'sign', 'square', 'relu'] as UnaryOp[]) {
      const out = ws.output('int32', [65]);
      gpu.unary(op, a.view, out);
      expectEqual(await ws.read(out), reference([65], [a], UNARY[op]));
    }
    // Large values stay exact (no float32 round trip): 16777217 is not a float32.
    const big = ws.view(new Int32Array([16777217, -2000000001]), [2]);
    const one = ws.view(new Int32Array([1]), [2], [0]);
    const sum = ws.output('int32', [2]);
    gpu.binary('add', big.view, one.view, sum);
    expectEqual(await ws.read(sum), [16777218, -2000000000]);
  });

  it('copy casts float32 to int32 toward zero and int32 to float32', async () => {
    const f = ws.view(new Float32Array([1.9, -1.9, 0.5, -0.5, 123456.7, 3]), [6]);
    const asInt = ws.output('int32', [6]);
    gpu.unary('copy', f.view, asInt);
    expectEqual(await ws.read(asInt), [1, -1, 0, 0, 123456, 3]);
    const i = ws.view(new Int32Array([-5, 7, 1 << 20]), [3]);
    const asFloat = ws.output('float32', [3]);
    gpu.unary('copy', i.view, asFloat);
    expectEqual(await ws.read(asFloat), [-5, 7, 1 << 20]);
  });

  it('scalar ops work in both operand orders and dtypes', async () => {
    const random = rng(21);
    const x = ws.view(randomFloats(33, random), [3, 11]);
    for (const [op, scalar] of [
      ['sub', 1.5],
      ['div', -3],
      ['pow', 2],
      ['maximum', 0.25],
    ] as const) {
      for (const first of [false, true]) {
        const out = ws.output('float32', [3, 11]);
        gpu.binaryScalar(op, x.view, scalar, first, out);
        const fn = BINARY[op];
        const expected = reference([3, 11], [x], (v) => (first ? fn(scalar, v) : fn(v, scalar)));
        expectClose(await ws.read(out), expected, { rel: 1e-6 });
      }
    }
    const ints = ws.view(randomInts(33, random), [33]);
    const out = ws.output('int32', [33]);
    gpu.binaryScalar('sub', ints.view, 1000, true, out);
    expectEqual(
      await ws.read(out),
      reference([33], [ints], (v) => 1000 - v),
    );
    // A fractional scalar with int32 input computes in float32.
    const mixed = ws.output('float32', [33]);
    gpu.binaryScalar('mul', ints.view, 0.5, false, mixed);
    expectEqual(
      await ws.read(mixed),
      reference([33], [ints], (v) => v * 0.5),
    );
  });

  it('the four-per-invocation path handles tails, splats and offsets, and nothing past the end', async () => {
    const random = rng(51);
    for (const n of [1, 3, 7, 33, 129]) {
      const data = randomFloats(n + 8, random);
      const scalar = ws.view(randomFloats(1, random), [n], [0]);
      for (const offset of [0, 4, 3]) {
        const a = ws.view(data, [n], [1], offset);
        const b = ws.view(data, [n], [1], 8 - offset);
        // An output buffer longer than the result: the slack must survive the partial vec4.
        const sentinel = new Float32Array(n + 4).fill(1234.5);
        const out = ws.view(sentinel, [n]);
        gpu.binary('sub', a.view, b.view, out.view);
        const all = await gpu.read(out.view.buffer, 'float32', 0, n + 4);
        expectClose(all.subarray(0, n), reference([n], [a, b], BINARY.sub));
        expectEqual(all.subarray(n), [1234.5, 1234.5, 1234.5, 1234.5]);
        const splat = ws.output('float32', [n]);
        gpu.binary('mul', scalar.view, a.view, splat);
        expectClose(await ws.read(splat), reference([n], [scalar, a], BINARY.mul));
      }
    }
    const vectorized = gpu.context.pipelines.labels().filter((l) => l.includes('VEC4'));
    expect(vectorized.some((l) => l.includes('A_SPLAT'))).toBe(true);
    expect(vectorized.some((l) => l.startsWith('elementwise[sub'))).toBe(true);
  });

  it('handles rank-6 permuted views and offsets', async () => {
    const shape = [2, 3, 2, 1, 3, 2];
    const data = randomFloats(200, rng(31));
    // A permuted, offset layout: strides that merge with nothing.
    const strides = [1, 2, 6 * 3, 0, 6, 6 * 3 * 2];
    const a = ws.view(data, shape, strides, 5);
    const b = ws.view(data, shape, [72, 24, 12, 0, 4, 1], 3);
    const out = ws.output('float32', shape);
    gpu.binary('mul', a.view, b.view, out);
    expectClose(await ws.read(out), reference(shape, [a, b], BINARY.mul));
  });

  it('assign writes a strided view of an existing buffer and leaves the rest alone', async () => {
    const random = rng(41);
    const base = randomFloats(5 * 9, random);
    const target = ws.view(base.slice(), [5, 9]);
    const x = ws.view(randomFloats(12, random), [3, 4]);
    // Rows 1..3, columns 2, 4, 6, 8 of the [5, 9] buffer.
    gpu.assign(x.view, { ...target.view, shape: [3, 4], strides: [9, 2], offset: 9 + 2 });
    const expected = Float64Array.from(base);
    forEachIndex([3, 4], ([r, c]) => (expected[9 + 2 + r * 9 + c * 2] = at(x, [r, c])));
    expectEqual(await ws.read(target.view), expected);
    // And with a cast from int32 into a transposed float view.
    const ints = ws.view(randomInts(6, random), [2, 3]);
    gpu.assign(ints.view, { ...target.view, shape: [2, 3], strides: [1, 9], offset: 0 });
    forEachIndex([2, 3], ([r, c]) => (expected[r + c * 9] = at(ints, [r, c])));
    expectEqual(await ws.read(target.view), expected);
  });
});
