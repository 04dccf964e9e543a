/**
 * Reductions over all or some dims, with keepdim: sum, mean, amax/amin (max/min values), argmax and
 * argmin, and `sumTo`, the un-broadcasting every broadcasting op's backward needs.
 */
import { withGrad } from '../autograd';
import type { DType, ReduceOp } from '../backend';
import { formatShape, normalizeDims, numel, shapesEqual, ShapeError, type Shape } from '../shape';
import type { Tensor } from '../tensor';
import { cast, div, eq, mul } from './elementwise';
import { expand, reshape } from './shape-ops';
import { emptyTensor, inputsDevice, requireFloat, scoped } from './support';

type Dims = number | readonly number[] | undefined;

/** The reduced dims (sorted), and the output shape with and without keepdim. */
function plan(
  op: string,
  x: Tensor,
  dims: Dims,
): { dims: number[]; kept: number[]; keepShape: number[] } {
  // An explicit empty list reduces everything, as PyTorch's sum(dim=[]) does.
  const list = Array.isArray(dims) && dims.length === 0 ? undefined : dims;
  const reduced = normalizeDims(list, x.ndim, op);
  const kept = x.shape.filter((_, d) => !reduced.includes(d));
  const keepShape = x.shape.map((s, d) => (reduced.includes(d) ? 1 : s));
  return { dims: reduced, kept, keepShape };
}

/** Runs the reduce kernel with the reduced dims moved last (a free permutation of strides). */
function reduceKernel(
  op: ReduceOp,
  x: Tensor,
  dims: number[],
  outShape: Shape,
  outType: DType,
): Tensor {
  const device = inputsDevice(op, x);
  const rest = x.shape.map((_, d) => d).filter((d) => !dims.includes(d));
  const order = [...rest, ...dims];
  const view = x.kernelView();
  const out = emptyTensor(device, outType, outShape);
  const outKernelShape = rest.map((d) => x.shape[d]);
  if (x.ndim === 0) {
    // A 0-d tensor reduces as a one-element vector.
    device.backend.reduce(op, { ...view, shape: [1], strides: [1] }, 1, {
      ...out.kernelView(),
      shape: [],
    });
  } else {
    device.backend.reduce(
      op,
      { ...view, shape: order.map((d) => x.shape[d]), strides: order.map((d) => x.strides[d]) },
      dims.length,
      { ...out.kernelView(), shape: outKernelShape, strides: contiguous(outKernelShape) },
    );
  }
  return out;
}

function contiguous(shape: readonly number[]): number[] {
  const strides: number[] = [];
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

export function sum(x: Tensor, dims?: Dims, keepdim = false): Tensor {
  const p = plan('sum', x, dims);
  const out = reduceKernel('sum', x, p.dims, keepdim ? p.keepShape : p.kept, x.dtype);
  return withGrad(dims === undefined ? 'SumBackward0' : 'SumBackward1', [x], out, () => (g) => [
    expand(reshape(g, p.keepShape), x.shape),
  ]);
}

export function mean(x: Tensor, dims?: Dims, keepdim = false): Tensor {
  requireFloat('mean', x);
  return scoped(() => {
    const p = plan('mean', x, dims);
    const count = p.dims.reduce((n, d) => n * x.shape[d], 1);
    return mul(sum(x, dims, keepdim), 1 / count);
  });
}

/** Gradient of max/min: flows to the extreme elements, split evenly among ties. */
function extremeGrad(x: Tensor, y: Tensor, g: Tensor, p: ReturnType<typeof plan>): Tensor {
  const mask = cast(eq(x, reshape(y, p.keepShape)), 'float32');
  const count = sum(mask, p.dims, true);
  return div(mul(reshape(g, p.keepShape), mask), count);
}

function extreme(op: 'max' | 'min', x: Tensor, dims: Dims, keepdim: boolean): Tensor {
  const p = plan(op === 'max' ? 'amax' : 'amin', x, dims);
  if (x.numel() === 0)
    throw new ShapeError(`${op}(): cannot reduce an empty tensor ${formatShape(x.shape)}`);
  const out = reduceKernel(op, x, p.dims, keepdim ? p.keepShape : p.kept, x.dtype);
  return withGrad(op === 'max' ? 'AmaxBackward0' : 'AminBackward0', [x], out, (save) => {
    const xs = save(x);
    const ys = save(out);
    return (g) => [extremeGrad(xs, ys, g, p)];
  });
}

export const amax = (x: Tensor, dims?: Dims, keepdim = false): Tensor =>
  extreme('max', x, dims, keepdim);
export const amin = (x: Tensor, dims?: Dims, keepdim = false): Tensor =>
  extreme('min', x, dims, keepdim);

function argExtreme(
  op: 'argmax' | 'argmin',
  x: Tensor,
  dim: number | undefined,
  keepdim: boolean,
): Tensor {
  const p = plan(op, x, dim);
  if (x.numel() === 0)
    throw new ShapeError(`${op}(): cannot reduce an empty tensor ${formatShape(x.shape)}`);
  // Without a dim PyTorch flattens, so keepdim keeps every dim as 1.
  return reduceKernel(op, x, p.dims, keepdim ? p.keepShape : p.kept, 'int32');
}

/** Index of the largest element along dim (or in the flattened tensor when dim is omitted). */
export const argmax = (x: Tensor, dim?: number, keepdim = false): Tensor =>
  argExtreme('argmax', x, dim, keepdim);
export const argmin = (x: Tensor, dim?: number, keepdim = false): Tensor =>
  argExtreme('argmin', x, dim, keepdim);

/** Sums g down to `shape` over the dims broadcasting added or stretched (broadcast backward). */
export function sumTo(g: Tensor, shape: Shape): Tensor {
  if (shapesEqual(g.shape, shape)) return g;
  const lead = g.ndim - shape.length;
  const dims: number[] = [];
  for (let d = 0; d < g.ndim; d++) {
    if (d < lead || (shape[d - lead] === 1 && g.shape[d] !== 1)) dims.push(d);
  }
  if (dims.length === 0) return reshape(g, shape);
  if (numel(shape) !== numel(g.shape) / dims.reduce((n, d) => n * g.shape[d], 1)) {
    throw new ShapeError(`sumTo: cannot reduce ${formatShape(g.shape)} to ${formatShape(shape)}`);
  }
  return reshape(sum(g, dims, true), shape);
}
