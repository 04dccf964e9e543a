/**
 * Binds kernels/elementwise.wgsl and kernels/fill.wgsl: fill, assign, and the unary, binary and
 * scalar ops of the element-wise table (each row's WGSL expression becomes the kernel's `op`).
 */

import type { BinaryOp, OutView, UnaryOp, View } from '../../backend';
import { binaryRow, unaryRow, type WgslExpression } from '../../elementwise-table';
import elementwiseWgsl from '../../../../kernels/elementwise.wgsl?raw';
import fillWgsl from '../../../../kernels/fill.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { checkRank, coalesce, elementCount, f32Bits } from './uniforms';
import { ELEMENTWISE, FILL } from './param-layouts';
import { wgslType, type WgslScalar } from './wgsl-types';

const elementwiseSource = ELEMENTWISE.source(elementwiseWgsl);
const fillSource = FILL.source(fillWgsl);

/** Fills a contiguous output with `value` (truncated toward zero for int32, like Int32Array). */
export function fill(ctx: KernelContext, out: OutView, value: number): void {
  const n = elementCount(out.shape);
  if (n === 0) return;
  const vec4 = out.offset % 4 === 0;
  const kernel = ctx.kernel('fill', vec4 ? 'vec4' : '', 'w', fillSource, () => ({
    flags: vec4 ? ['VEC4'] : [],
  }));
  const bits = out.dtype === 'int32' ? value | 0 : f32Bits(value);
  ctx.params(FILL).set('n', n).set('bits', bits).set('offset', out.offset);
  ctx.run(kernel, [gpuOf(out)], grid64(vec4 ? Math.ceil(n / 4) : n));
}

/** The scalar operand of a scalar op, and whether it is the left operand. */
interface ScalarOperand {
  readonly value: number;
  readonly first: boolean;
}

function launch(
  ctx: KernelContext,
  opName: string,
  expression: WgslExpression,
  a: View,
  b: View | null,
  scalar: ScalarOperand | null,
  out: OutView,
  stridedOut = false,
): void {
  const n = elementCount(out.shape);
  if (n === 0) return;
  const operands = b ? [a.strides, b.strides] : [a.strides];
  if (stridedOut) operands.push(out.strides);
  const merged = coalesce(out.shape, operands);
  const rank = merged.shape.length;
  checkRank(opName, rank);
  const intInputs =
    a.dtype === 'int32' &&
    (b ? b.dtype === 'int32' : true) &&
    (scalar ? Number.isInteger(scalar.value) && Math.abs(scalar.value) < 2 ** 31 : true);
  const compute: WgslScalar = expression.int !== undefined && intInputs ? 'i32' : 'f32';
  const aType = wgslType(a.dtype);
  const bType = b ? wgslType(b.dtype) : '';
  const outType = wgslType(out.dtype);
  const flags: string[] = [];
  if (b) flags.push('HAS_B');
  if (scalar) flags.push(scalar.first ? 'SCALAR_FIRST' : 'SCALAR_B');
  if (rank === 1) flags.push('RANK1');
  if (stridedOut) flags.push('OUT_STRIDED');
  // Four elements per invocation when every tensor input is contiguous (4-aligned) or a scalar.
  const vectorizable = (view: View, k: number) =>
    merged.strides[k][0] === 0 || (merged.strides[k][0] === 1 && view.offset % 4 === 0);
  if (rank === 1 && !stridedOut && vectorizable(a, 0) && (!b || vectorizable(b, 1))) {
    flags.push('VEC4');
    if (merged.strides[0][0] === 0) flags.push('A_SPLAT');
    if (b && merged.strides[1][0] === 0) flags.push('B_SPLAT');
  }
  const key = `${opName}|${aType}${bType}>${outType}|${compute}|${flags.join(',')}|r${rank}`;
  const kernel = ctx.kernel('elementwise', key, b ? 'wrr' : 'wr', elementwiseSource, () => ({
    flags,
    values: {
      A_T: aType,
      B_T: bType || 'f32',
      OUT_T: outType,
      C: compute,
      RANK: rank,
      EXPR: compute === 'i32' ? (expression.int as string) : expression.float,
    },
  }));
  const params = ctx.params(ELEMENTWISE);
  params.set('n', n).list('shape', merged.shape).list('aStrides', merged.strides[0]);
  params.set('aOffset', a.offset);
  if (b) params.list('bStrides', merged.strides[1]).set('bOffset', b.offset);
  if (scalar) params.set('scalar', compute === 'i32' ? scalar.value | 0 : f32Bits(scalar.value));
  if (stridedOut) {
    params.list('outStrides', merged.strides[operands.length - 1]).set('outOffset', out.offset);
  }
  const target = stridedOut ? gpuOf(out) : outputOf(out);
  const buffers = b ? [target, gpuOf(a), gpuOf(b)] : [target, gpuOf(a)];
  // Both forms handle four elements per invocation (see elementwise.wgsl).
  ctx.run(kernel, buffers, grid64(Math.ceil(n / 4)));
}

export function unary(ctx: KernelContext, op: UnaryOp, x: View, out: OutView): void {
  launch(ctx, op, unaryRow(op).wgsl, x, null, null, out);
}

/**
 * Copies (and casts) x into `out`, a strided view of an existing buffer; other elements of the
 * buffer keep their values.
 */
export function assign(ctx: KernelContext, x: View, out: View): void {
  launch(ctx, 'copy', unaryRow('copy').wgsl, x, null, null, out, true);
}

export function binary(ctx: KernelContext, op: BinaryOp, a: View, b: View, out: OutView): void {
  launch(ctx, op, binaryRow(op).wgsl, a, b, null, out);
}

export function binaryScalar(
  ctx: KernelContext,
  op: BinaryOp,
  a: View,
  scalar: number,
  scalarFirst: boolean,
  out: OutView,
): void {
  launch(ctx, op, binaryRow(op).wgsl, a, null, { value: scalar, first: scalarFirst }, out);
}
