/**
 * Element-wise CPU loops: one small loop per op of the element-wise table (so each gets its own
 * JIT type feedback and the row's function is inlined), driven over strided views by `forEachRow`.
 */
import type { BinaryOp, OutView, UnaryOp, View } from '../../backend';
import { binaryRow, unaryRow } from '../../elementwise-table';
import { compile } from './compile';
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

/**
 * The loop of one op: generated per op (compile.ts), so each loop has its own type feedback and
 * the row's function (constant in the loop) is inlined by the JIT. Where a policy refuses eval,
 * one shared closure per arity serves every op (slower: the call in it sees every op).
 */
function unaryLoop(f: (x: number) => number): UnaryLoop {
  return (
    compile<UnaryLoop>(
      'unaryLoop',
      'n, o, oi, os, x, xi, xs',
      'for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = f(x[xi]);',
      { f },
    ) ??
    ((n, o, oi, os, x, xi, xs) => {
      for (let k = 0; k < n; k++, oi += os, xi += xs) o[oi] = f(x[xi]);
    })
  );
}

function binaryLoop(f: (a: number, b: number) => number): BinaryLoop {
  return (
    compile<BinaryLoop>(
      'binaryLoop',
      'n, o, oi, os, a, ai, as, b, bi, bs',
      'for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = f(a[ai], b[bi]);',
      { f },
    ) ??
    ((n, o, oi, os, a, ai, as, b, bi, bs) => {
      for (let k = 0; k < n; k++, oi += os, ai += as, bi += bs) o[oi] = f(a[ai], b[bi]);
    })
  );
}

/** Each op's loop, made at its first use. */
const unaryLoops = new Map<UnaryOp, UnaryLoop>();
const binaryLoops = new Map<string, BinaryLoop>();

function unaryLoopFor(op: UnaryOp): UnaryLoop {
  let loop = unaryLoops.get(op);
  if (!loop) unaryLoops.set(op, (loop = unaryLoop(unaryRow(op).js)));
  return loop;
}

/** Integer results need the row's integer form where a float64 intermediate would lose low bits. */
function binaryLoopFor(op: BinaryOp, out: OutView, a: View, b: View): BinaryLoop {
  const row = binaryRow(op);
  const exact =
    row.jsInt !== undefined && out.dtype === 'int32' && a.dtype === 'int32' && b.dtype === 'int32';
  const key = exact ? `${op}:int` : op;
  let loop = binaryLoops.get(key);
  if (!loop) binaryLoops.set(key, (loop = binaryLoop(exact ? row.jsInt! : row.js)));
  return loop;
}

/** Every element of a contiguous `out` set to `value` (an int32 output takes `value | 0`). */
export function fillKernel(out: OutView, value: number): void {
  let n = 1;
  for (const d of out.shape) n *= d;
  arrayOf(out).fill(value, out.offset, out.offset + n);
}

export function unaryKernel(op: UnaryOp, x: View, out: View): void {
  const loop = unaryLoopFor(op);
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
