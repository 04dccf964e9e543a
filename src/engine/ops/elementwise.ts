/**
 * The element-wise ops of the table (../elementwise-table.ts): one generic forward per arity runs
 * the backend kernel with numpy broadcasting and attaches the row's gradient.
 */
import { withGrad } from '../autograd';
import type { DType } from '../backend';
import {
  BINARY_OPS,
  binaryRow,
  UNARY_OPS,
  unaryRow,
  type BinaryOp,
  type GradOps,
  type GradTensor,
  type UnaryOp,
} from '../elementwise-table';
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
  scopedAll,
  type Operand,
} from './support';
import { toDevice } from './transfer';

export { cast };

// ---------------------------------------------------------------------------------------------
// Unary ops.

function unary(op: UnaryOp, x: Tensor): Tensor {
  const device = inputsDevice(op, x);
  const spec = unaryRow(op);
  return scoped(() => {
    const input = spec.ints === 'float' ? cast(x, 'float32') : x;
    const out = emptyTensor(device, input.dtype, input.shape);
    if (out.numel() > 0) device.backend.unary(op, kernelView(input), kernelView(out));
    const grad = spec.grad;
    if (!grad) return out;
    return withGrad(`${capitalize(op)}Backward0`, [x], out, (save) => {
      const saved = spec.saves === 'x' ? save(input) : spec.saves === 'y' ? save(out) : out;
      // Scoped: the composition's intermediates are released before a fused chain runs, so the
      // chain stores only the gradient (not step(y) beside g·step(y)).
      return (g) => [scoped(() => grad(gradOps, g, saved) as Tensor)];
    });
  });
}

/** Every unary op of the table as a function of one tensor (`copy` is `clone`'s kernel, not here). */
type UnaryFunctions = { readonly [K in Exclude<UnaryOp, 'copy'>]: (x: Tensor) => Tensor };
export const unaryOps = Object.fromEntries(
  (Object.keys(UNARY_OPS) as UnaryOp[])
    .filter((op) => op !== 'copy')
    .map((op) => [op, (x: Tensor) => unary(op, x)]),
) as UnaryFunctions;

// The engine's own code calls these by name.
export const { neg, exp, log, sqrt, rsqrt, abs, sign, square, reciprocal, relu, sigmoid, tanh } =
  unaryOps;
export const { floor, step } = unaryOps;
export const { gelu, leakyRelu, silu } = unaryOps;

/**
 * A unary op with its row's PyTorch arguments (`F.softplus(x, beta=2)`): the plain op while the
 * numeric ones are the defaults, else the row's composition. Flags (`inplace`) change nothing.
 */
export function unaryWithArgs(
  op: Exclude<UnaryOp, 'copy'>,
  x: Tensor,
  args: Readonly<Record<string, number | boolean | string>>,
): Tensor {
  const row = unaryRow(op);
  const plain = unaryOps[op];
  const numbers: Record<string, number> = {};
  const text: Record<string, string> = {};
  let defaults = true;
  for (const [name, fallback] of Object.entries(row.args ?? {})) {
    if (typeof fallback === 'boolean') continue;
    const value = args[name] ?? fallback;
    if (typeof value !== typeof fallback)
      throw new TypeError(`${op}: ${name} must be a ${typeof fallback}`);
    if (typeof value === 'number') numbers[name] = value;
    else text[name] = value as string;
    if (value !== fallback) defaults = false;
  }
  if (defaults || !row.withArgs) return plain(x);
  const withArgs = row.withArgs;
  // The table's compositions see tensors as its own minimal type; these are the engine's.
  const self = plain as unknown as (t: GradTensor) => GradTensor;
  return scoped(() => withArgs(gradOps, self, x, numbers, text) as Tensor);
}

// ---------------------------------------------------------------------------------------------
// Binary ops.

type Grads = [Tensor | null, Tensor | null];

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
  const spec = binaryRow(op);
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
        const [ga, gb] = scopedAll(() => grad(gradOps, g, keepA, keepB, keepY, need) as Grads);
        return [
          ga && isTensor(a) ? sumTo(ga, a.shape) : null,
          gb && isTensor(b) ? sumTo(gb, b.shape) : null,
        ];
      };
    });
  });
}

/** Every binary op of the table as a function of two operands (tensors or numbers). */
type BinaryFunctions = { readonly [K in BinaryOp]: (a: Operand, b: Operand) => Tensor };
export const binaryOps = Object.fromEntries(
  (Object.keys(BINARY_OPS) as BinaryOp[]).map((op) => [
    op,
    (a: Operand, b: Operand) => binary(op, a, b),
  ]),
) as BinaryFunctions;

export const { add, sub, mul, div, pow, maximum, minimum } = binaryOps;
export const { eq, ne, lt, le, gt, ge } = binaryOps;

/** The ops the table's gradients are written with. */
// The table's gradients see tensors as its own minimal type; these are the engine's tensors.
const gradOps = { ...binaryOps, ...unaryOps, cast } as unknown as GradOps;

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
