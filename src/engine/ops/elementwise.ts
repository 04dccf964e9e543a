/**
 * Element-wise ops as a table: for each op, how int inputs are treated, which tensors its backward
 * reads, and its gradient composed from other ops. One generic forward per arity runs the backend
 * kernel with numpy broadcasting and attaches the backward.
 */
import { withGrad } from '../autograd';
import type { BinaryOp, DType, UnaryOp } from '../backend';
import { promoteTypes, promoteWithScalar } from '../dtype';
import { broadcastShapes, numel } from '../shape';
import type { Tensor } from '../tensor';
import { sumTo } from './broadcast';
import { cast } from './cast';
import {
  broadcastView,
  emptyTensor,
  inputsDevice,
  isTensor,
  kernelView,
  scoped,
  type Operand,
} from './support';
import { toDevice } from './transfer';

export { cast };

// ---------------------------------------------------------------------------------------------
// Unary ops.

interface UnarySpec {
  /** 'keep': int32 in, int32 out; 'float': int inputs are cast first (exp of an int is a float). */
  ints: 'keep' | 'float';
  /** What the gradient reads: the input x, the output y, or nothing. */
  saves: 'x' | 'y' | 'none';
  /** Gradient w.r.t. the input; absent for piecewise-constant ops (no gradient flows). */
  grad?: (g: Tensor, saved: Tensor) => Tensor;
}

const unaryTable: Record<Exclude<UnaryOp, 'copy'>, UnarySpec> = {
  neg: { ints: 'keep', saves: 'none', grad: (g) => neg(g) },
  exp: { ints: 'float', saves: 'y', grad: (g, y) => mul(g, y) },
  log: { ints: 'float', saves: 'x', grad: (g, x) => div(g, x) },
  sqrt: { ints: 'float', saves: 'y', grad: (g, y) => div(g, mul(y, 2)) },
  rsqrt: { ints: 'float', saves: 'y', grad: (g, y) => mul(g, mul(pow(y, 3), -0.5)) },
  abs: { ints: 'keep', saves: 'x', grad: (g, x) => mul(g, sign(x)) },
  sign: { ints: 'keep', saves: 'none' },
  square: { ints: 'keep', saves: 'x', grad: (g, x) => mul(g, mul(x, 2)) },
  reciprocal: { ints: 'float', saves: 'y', grad: (g, y) => neg(mul(g, square(y))) },
  // Backward in one fused kernel each (instead of two or three element-wise passes).
  relu: { ints: 'keep', saves: 'y', grad: (g, y) => binary('reluGrad', g, y) },
  sigmoid: { ints: 'float', saves: 'y', grad: (g, y) => binary('sigmoidGrad', g, y) },
  tanh: { ints: 'float', saves: 'y', grad: (g, y) => binary('tanhGrad', g, y) },
  floor: { ints: 'keep', saves: 'none' },
  step: { ints: 'keep', saves: 'none' },
};

function unary(op: Exclude<UnaryOp, 'copy'>, x: Tensor): Tensor {
  const device = inputsDevice(op, x);
  const spec = unaryTable[op];
  return scoped(() => {
    const input = spec.ints === 'float' ? cast(x, 'float32') : x;
    const out = emptyTensor(device, input.dtype, input.shape);
    if (out.numel() > 0) device.backend.unary(op, kernelView(input), kernelView(out));
    const grad = spec.grad;
    if (!grad) return out;
    return withGrad(`${capitalize(op)}Backward0`, [x], out, (save) => {
      const saved = spec.saves === 'x' ? save(input) : spec.saves === 'y' ? save(out) : out;
      return (g) => [grad(g, saved)];
    });
  });
}

export const neg = (x: Tensor): Tensor => unary('neg', x);
export const exp = (x: Tensor): Tensor => unary('exp', x);
export const log = (x: Tensor): Tensor => unary('log', x);
export const sqrt = (x: Tensor): Tensor => unary('sqrt', x);
export const rsqrt = (x: Tensor): Tensor => unary('rsqrt', x);
export const abs = (x: Tensor): Tensor => unary('abs', x);
export const sign = (x: Tensor): Tensor => unary('sign', x);
export const square = (x: Tensor): Tensor => unary('square', x);
export const reciprocal = (x: Tensor): Tensor => unary('reciprocal', x);
export const relu = (x: Tensor): Tensor => unary('relu', x);
export const sigmoid = (x: Tensor): Tensor => unary('sigmoid', x);
export const tanh = (x: Tensor): Tensor => unary('tanh', x);
export const floor = (x: Tensor): Tensor => unary('floor', x);
/** 1 where x > 0, else 0: relu's derivative. */
export const step = (x: Tensor): Tensor => unary('step', x);

// ---------------------------------------------------------------------------------------------
// Binary ops.

type Grads = [Tensor | null, Tensor | null];

interface BinarySpec {
  /** 'arith': promoted dtype; 'float': always float32; 'compare': int32 0/1 output, no gradient. */
  kind: 'arith' | 'float' | 'compare';
  /** Which of a, b and the output y the gradient reads. */
  saves: readonly ('a' | 'b' | 'y')[];
  /** Gradients before un-broadcasting; `need` says which operands want one. */
  grad?: (g: Tensor, a: Operand, b: Operand, y: Tensor, need: [boolean, boolean]) => Grads;
}

/** d max(a, b)/da: 1 where a wins, 1/2 on ties (PyTorch splits ties evenly). */
function winnerMask(a: Operand, b: Operand, larger: boolean): Tensor {
  const wins = larger ? gt(a, b) : lt(a, b);
  return add(cast(wins, 'float32'), mul(cast(eq(a, b), 'float32'), 0.5));
}

const binaryTable: Record<BinaryOp, BinarySpec> = {
  add: { kind: 'arith', saves: [], grad: (g) => [g, g] },
  sub: { kind: 'arith', saves: [], grad: (g, _a, _b, _y, need) => [g, need[1] ? neg(g) : null] },
  mul: {
    kind: 'arith',
    saves: ['a', 'b'],
    grad: (g, a, b, _y, need) => [need[0] ? mul(g, b) : null, need[1] ? mul(g, a) : null],
  },
  div: {
    kind: 'float',
    saves: ['b', 'y'],
    grad: (g, _a, b, y, need) => [
      need[0] ? div(g, b) : null,
      need[1] ? neg(mul(g, div(y, b))) : null,
    ],
  },
  pow: {
    kind: 'float',
    saves: ['a', 'b', 'y'],
    grad: (g, a, b, y, need) => [
      need[0] ? mul(g, mul(b, pow(a, typeof b === 'number' ? b - 1 : sub(b, 1)))) : null,
      need[1] ? mul(g, mul(y, typeof a === 'number' ? Math.log(a) : log(a))) : null,
    ],
  },
  maximum: {
    kind: 'arith',
    saves: ['a', 'b'],
    grad: (g, a, b, _y, need) => {
      const m = winnerMask(a, b, true);
      return [need[0] ? mul(g, m) : null, need[1] ? mul(g, sub(1, m)) : null];
    },
  },
  minimum: {
    kind: 'arith',
    saves: ['a', 'b'],
    grad: (g, a, b, _y, need) => {
      const m = winnerMask(a, b, false);
      return [need[0] ? mul(g, m) : null, need[1] ? mul(g, sub(1, m)) : null];
    },
  },
  eq: { kind: 'compare', saves: [] },
  ne: { kind: 'compare', saves: [] },
  lt: { kind: 'compare', saves: [] },
  le: { kind: 'compare', saves: [] },
  gt: { kind: 'compare', saves: [] },
  ge: { kind: 'compare', saves: [] },
  // Activation-gradient kernels: only backward calls them, and backward records no graph
  // (higher-order gradients are refused), so they need no gradient of their own.
  reluGrad: { kind: 'arith', saves: [] },
  sigmoidGrad: { kind: 'float', saves: [] },
  tanhGrad: { kind: 'float', saves: [] },
};

/** A 0-d cpu tensor may join a tensor on another device (as in PyTorch): it is copied over. */
function alignScalarTensor(x: Operand, other: Operand): Operand {
  if (!isTensor(x) || !isTensor(other)) return x;
  if (x.ndim === 0 && x.deviceObject.kind === 'cpu' && other.deviceObject !== x.deviceObject) {
    return toDevice(x, other.deviceObject);
  }
  return x;
}

function binary(op: BinaryOp, a0: Operand, b0: Operand): Tensor {
  if (!isTensor(a0) && !isTensor(b0)) {
    throw new TypeError(`${op}: expected at least one tensor, got two numbers`);
  }
  if ((!isTensor(a0) && typeof a0 !== 'number') || (!isTensor(b0) && typeof b0 !== 'number')) {
    throw new TypeError(`${op}: arguments must be tensors or numbers`);
  }
  const spec = binaryTable[op];
  return scoped(() => {
    const a = alignScalarTensor(a0, b0);
    const b = alignScalarTensor(b0, a0);
    const device = inputsDevice(op, a, b);
    let computeType: DType;
    if (spec.kind === 'float') computeType = 'float32';
    else if (isTensor(a) && isTensor(b)) computeType = promoteTypes(a.dtype, b.dtype);
    else if (isTensor(a)) computeType = promoteWithScalar(a.dtype, b as number);
    else computeType = promoteWithScalar((b as Tensor).dtype, a);
    const outType: DType = spec.kind === 'compare' ? 'int32' : computeType;
    const A = isTensor(a) ? cast(a, computeType) : a;
    const B = isTensor(b) ? cast(b, computeType) : b;
    let out: Tensor;
    if (isTensor(A) && isTensor(B)) {
      const shape = broadcastShapes(op, A.shape, B.shape);
      out = emptyTensor(device, outType, shape);
      if (numel(shape) > 0) {
        device.backend.binary(
          op,
          broadcastView(A, shape),
          broadcastView(B, shape),
          kernelView(out),
        );
      }
    } else {
      const t = (isTensor(A) ? A : B) as Tensor;
      const scalar = (isTensor(A) ? B : A) as number;
      out = emptyTensor(device, outType, t.shape);
      if (out.numel() > 0) {
        device.backend.binaryScalar(op, kernelView(t), scalar, !isTensor(A), kernelView(out));
      }
    }
    const grad = spec.grad;
    if (!grad) return out;
    return withGrad(`${capitalize(op)}Backward0`, [a, b], out, (save) => {
      const keepA = spec.saves.includes('a') && isTensor(A) ? save(A) : A;
      const keepB = spec.saves.includes('b') && isTensor(B) ? save(B) : B;
      const keepY = spec.saves.includes('y') ? save(out) : out;
      const need: [boolean, boolean] = [
        isTensor(a) && a.requiresGrad,
        isTensor(b) && b.requiresGrad,
      ];
      return (g) => {
        const [ga, gb] = grad(g, keepA, keepB, keepY, need);
        return [
          ga && isTensor(a) ? sumTo(ga, a.shape) : null,
          gb && isTensor(b) ? sumTo(gb, b.shape) : null,
        ];
      };
    });
  });
}

export const add = (a: Operand, b: Operand): Tensor => binary('add', a, b);
export const sub = (a: Operand, b: Operand): Tensor => binary('sub', a, b);
export const mul = (a: Operand, b: Operand): Tensor => binary('mul', a, b);
export const div = (a: Operand, b: Operand): Tensor => binary('div', a, b);
export const pow = (a: Operand, b: Operand): Tensor => binary('pow', a, b);
export const maximum = (a: Operand, b: Operand): Tensor => binary('maximum', a, b);
export const minimum = (a: Operand, b: Operand): Tensor => binary('minimum', a, b);
export const eq = (a: Operand, b: Operand): Tensor => binary('eq', a, b);
export const ne = (a: Operand, b: Operand): Tensor => binary('ne', a, b);
export const lt = (a: Operand, b: Operand): Tensor => binary('lt', a, b);
export const le = (a: Operand, b: Operand): Tensor => binary('le', a, b);
export const gt = (a: Operand, b: Operand): Tensor => binary('gt', a, b);
export const ge = (a: Operand, b: Operand): Tensor => binary('ge', a, b);

/** Limits values to [min, max] (either bound may be null). */
export function clamp(x: Tensor, min: number | null, max: number | null): Tensor {
  if (min === null && max === null)
    throw new TypeError('clamp: at least one of min and max must be given');
  return scoped(() => {
    let out = x;
    if (min !== null) out = maximum(out, min);
    if (max !== null) out = minimum(out, max);
    return out;
  });
}

function capitalize(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}
