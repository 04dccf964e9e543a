/**
 * Element-wise CPU loops: one small loop per op (so each gets its own JIT type feedback and the
 * op's expression is inlined), driven over strided views by `forEachRow`.
 */
import type { BinaryOp, OutView, UnaryOp, View } from '../../backend';
import { arrayOf } from './buffer';
import { coalesce, forEachRow } from './strided';

/** Float64Array appears only as the one-element holder of a scalar operand. */
type Arr = Float32Array | Int32Array | Float64Array;
type UnaryLoop = (
  n: number,
  o: Arr,
  oi: number,
  os: number,
  x: Arr,
  xi: number,
  xs: number,
) => void;
type BinaryLoop = (
  n: number,
  o: Arr,
  oi: number,
  os: number,
  a: Arr,
  ai: number,
  as: number,
  b: Arr,
  bi: number,
  bs: number,
) => void;

function sigmoid(v: number): number {
  if (v >= 0) return 1 / (1 + Math.exp(-v));
  const e = Math.exp(v);
  return e / (1 + e);
}

const unaryLoops: Record<UnaryOp, UnaryLoop> = {
  copy: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = x[xi];
  },
  neg: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = -x[xi];
  },
  exp: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = Math.exp(x[xi]);
  },
  log: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = Math.log(x[xi]);
  },
  sqrt: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = Math.sqrt(x[xi]);
  },
  rsqrt: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = 1 / Math.sqrt(x[xi]);
  },
  abs: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = Math.abs(x[xi]);
  },
  sign: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) {
      const v = x[xi];
      o[oi] = v > 0 ? 1 : v < 0 ? -1 : 0;
    }
  },
  square: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = x[xi] * x[xi];
  },
  reciprocal: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = 1 / x[xi];
  },
  relu: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = x[xi] > 0 ? x[xi] : 0;
  },
  sigmoid: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = sigmoid(x[xi]);
  },
  tanh: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = Math.tanh(x[xi]);
  },
  floor: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = Math.floor(x[xi]);
  },
  step: (n, o, oi, os, x, xi, xs) => {
    for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = x[xi] > 0 ? 1 : 0;
  },
};

const binaryLoops: Record<BinaryOp, BinaryLoop> = {
  add: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] + b[bi];
  },
  sub: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] - b[bi];
  },
  mul: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] * b[bi];
  },
  div: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] / b[bi];
  },
  pow: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = Math.pow(a[ai], b[bi]);
  },
  maximum: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) {
      const x = a[ai];
      const y = b[bi];
      o[oi] = x !== x || y !== y ? NaN : x > y ? x : y;
    }
  },
  minimum: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) {
      const x = a[ai];
      const y = b[bi];
      o[oi] = x !== x || y !== y ? NaN : x < y ? x : y;
    }
  },
  eq: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] === b[bi] ? 1 : 0;
  },
  ne: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] !== b[bi] ? 1 : 0;
  },
  lt: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] < b[bi] ? 1 : 0;
  },
  le: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] <= b[bi] ? 1 : 0;
  },
  gt: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] > b[bi] ? 1 : 0;
  },
  ge: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = a[ai] >= b[bi] ? 1 : 0;
  },
  reluGrad: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = b[bi] > 0 ? a[ai] : 0;
  },
  sigmoidGrad: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) {
      const y = b[bi];
      o[oi] = a[ai] * y * (1 - y);
    }
  },
  tanhGrad: (n, o, oi, os, a, ai, as, b, bi, bs) => {
    for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) {
      const y = b[bi];
      o[oi] = a[ai] * (1 - y * y);
    }
  },
};

/** Integer results need integer arithmetic where a float64 intermediate would lose low bits. */
function intMulLoop(
  n: number,
  o: Arr,
  oi: number,
  os: number,
  a: Arr,
  ai: number,
  as: number,
  b: Arr,
  bi: number,
  bs: number,
): void {
  for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = Math.imul(a[ai], b[bi]);
}

function binaryLoopFor(op: BinaryOp, out: OutView, a: View, b: View): BinaryLoop {
  if (op === 'mul' && out.dtype === 'int32' && a.dtype === 'int32' && b.dtype === 'int32') {
    return intMulLoop;
  }
  return binaryLoops[op];
}

/** Every element of a contiguous `out` set to `value` (an int32 output takes `value | 0`). */
export function fillKernel(out: OutView, value: number): void {
  let n = 1;
  for (const d of out.shape) n *= d;
  arrayOf(out).fill(value, out.offset, out.offset + n);
}

export function unaryKernel(op: UnaryOp, x: View, out: View): void {
  const loop = unaryLoops[op];
  const o = arrayOf(out);
  const xa = arrayOf(x);
  const walk = coalesce(out.shape, [out.strides, x.strides]);
  const last = walk.shape.length - 1;
  const os = walk.strides[0][last];
  const xs = walk.strides[1][last];
  forEachRow(walk, [out.offset, x.offset], (n, pos) => loop(n, o, pos[0], os, xa, pos[1], xs));
}

export function binaryKernel(op: BinaryOp, a: View, b: View, out: View): void {
  const loop = binaryLoopFor(op, out, a, b);
  const o = arrayOf(out);
  const aa = arrayOf(a);
  const ba = arrayOf(b);
  const walk = coalesce(out.shape, [out.strides, a.strides, b.strides]);
  const last = walk.shape.length - 1;
  const [os, as, bs] = walk.strides.map((s) => s[last]);
  forEachRow(walk, [out.offset, a.offset, b.offset], (n, pos) =>
    loop(n, o, pos[0], os, aa, pos[1], as, ba, pos[2], bs),
  );
}

/** A scalar operand is a one-element array read with stride 0, so the same loops serve. */
export function binaryScalarKernel(
  op: BinaryOp,
  a: View,
  scalar: number,
  scalarFirst: boolean,
  out: View,
): void {
  const s =
    out.dtype === 'int32' && a.dtype === 'int32'
      ? new Int32Array([scalar])
      : new Float64Array([scalar]);
  const loop = binaryLoopFor(op, out, a, a);
  const o = arrayOf(out);
  const aa = arrayOf(a);
  const walk = coalesce(out.shape, [out.strides, a.strides]);
  const last = walk.shape.length - 1;
  const os = walk.strides[0][last];
  const as = walk.strides[1][last];
  forEachRow(walk, [out.offset, a.offset], (n, pos) =>
    scalarFirst
      ? loop(n, o, pos[0], os, s, 0, 0, aa, pos[1], as)
      : loop(n, o, pos[0], os, aa, pos[1], as, s, 0, 0),
  );
}
