/**
 * The element-wise table's ops in each face, found by their rows' `faces` (engine/
 * elementwise-table.ts): `torch.exp`, `F.relu`, Keras's `'sigmoid'`, `tf.math.exp`. The faces
 * spread these in; no face lists a table op by name, so a new row appears everywhere it says.
 */
import {
  BINARY_OPS,
  ops,
  opsWithFace,
  Tensor,
  UNARY_OPS,
  unaryRow,
  type UnaryOp,
  type WithFace,
} from '../engine';
import { bindArgs, tensorArg } from './args';

type Unary = Exclude<UnaryOp, 'copy'>;
type Fn = (...args: unknown[]) => Tensor;

/** The row's further arguments that were given (flags and numbers; the op checks numbers). */
function givenArgs(
  op: Unary,
  a: Record<string, unknown>,
): Record<string, number | boolean | string> {
  const out: Record<string, number | boolean | string> = {};
  for (const name of Object.keys(unaryRow(op).args ?? {})) {
    const value = a[name];
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
      out[name] = value;
    else if (value !== undefined && value !== null)
      throw new TypeError(`${op}: ${name} must be a number, a bool or a string`);
  }
  return out;
}

/**
 * The op with its row's arguments after the input, F.softplus(input, beta, threshold), and then
 * `ignored` ones (TensorFlow's `name`).
 */
function withRowArgs(
  op: Unary,
  input: string,
  convert: (v: unknown) => Tensor,
  ignored: readonly string[] = [],
): Fn {
  const params = [input, ...Object.keys(unaryRow(op).args ?? {}), ...ignored];
  return (...args) => {
    const a = bindArgs({ name: op, params }, args);
    return ops.unaryWithArgs(op, convert(a[input]), givenArgs(op, a));
  };
}

type TensorFace = WithFace<typeof UNARY_OPS, 'tensor'> | WithFace<typeof BINARY_OPS, 'tensor'>;

/** `torch.exp(t)`, `torch.mul(a, b)`: the Tensor methods as functions of their input. */
export function torchFunctions(): Record<TensorFace, Fn> {
  const { unary, binary } = opsWithFace('tensor');
  return Object.fromEntries(
    [...unary, ...binary].map((op) => [
      op,
      (input: unknown, ...rest: unknown[]) => {
        const t = tensorArg(input, `torch.${op}: input`);
        return (t[op as TensorFace] as (...a: unknown[]) => Tensor).apply(t, rest);
      },
    ]),
  ) as Record<TensorFace, Fn>;
}

/** `torch.nn.functional.relu(input, inplace=False)` and the other functional rows. */
export function functionalOps(): Record<WithFace<typeof UNARY_OPS, 'functional'>, Fn> {
  return Object.fromEntries(
    opsWithFace('functional').unary.map((op) => [
      op,
      withRowArgs(op as Unary, 'input', (v) => tensorArg(v, `${op}: input`)),
    ]),
  ) as Record<WithFace<typeof UNARY_OPS, 'functional'>, Fn>;
}

/** Keras's activations by name ('relu', 'sigmoid', …). */
export function kerasActivations(): Record<string, (x: Tensor) => Tensor> {
  return Object.fromEntries(
    opsWithFace('keras').unary.map((op) => [op, ops.unaryOps[op as Unary]]),
  );
}

/** `tf.exp`, `tf.math.exp`, `tf.nn.relu`, … by TensorFlow's names (`tfName`, else the op's). */
export function tfNamespaces(convert: (value: unknown) => Tensor): {
  tf: Record<string, Fn>;
  math: Record<string, Fn>;
  nn: Record<string, Fn>;
} {
  const spaces = { tf: {}, math: {}, nn: {} } as Record<'tf' | 'math' | 'nn', Record<string, Fn>>;
  for (const op of opsWithFace('tf').unary as Unary[]) {
    const faces = unaryRow(op).faces ?? {};
    const fn = withRowArgs(op, 'x', convert, ['name']);
    for (const space of faces.tf ?? []) spaces[space][faces.tfName ?? op] = fn;
  }
  return spaces;
}
