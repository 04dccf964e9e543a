/**
 * Reductions over all or some dims, with keepdim: sum, mean, amax/amin (max/min values), argmax and
 * argmin, and `sumTo`, the un-broadcasting every broadcasting op's backward needs.
 */
import { withGrad } from '../autograd';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { sum } from './broadcast';
import { cast, div, eq, mul } from './elementwise';
import { plan, reduceKernel } from './reduction-kernel';
import { reshape } from './shape-ops';
import { requireFloat, scoped } from './support';

// sum and sumTo live with expand (broadcast.ts): each is the other's gradient.
export { sum, sumTo } from './broadcast';

type Dims = number | readonly number[] | undefined;

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
