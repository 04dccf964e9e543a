/**
 * Broadcasting and its inverse, kept in one module because each is the other's gradient: `expand`
 * (a stride-0 view) backpropagates through `sumTo`, and `sum` backpropagates through `expand`.
 */
import { withGrad } from '../autograd';
import { broadcastShapes, formatShape, numel, shapesEqual, ShapeError, type Shape } from '../shape';
import type { Tensor } from '../tensor';
import { plan, reduceKernel, type Dims } from './reduction-kernel';
import { reshape } from './shape-ops';
import { inputsDevice, viewTensor } from './support';

/** Broadcasts size-1 dims (and new leading dims) to `shape` without copying; -1 keeps a size. */
export function expand(x: Tensor, shape: Shape): Tensor {
  inputsDevice('expand', x);
  if (shape.length < x.ndim) {
    throw new ShapeError(
      `expand: the number of sizes provided (${shape.length}) must be greater or equal to the ` +
        `number of dimensions in the tensor (${x.ndim})`,
    );
  }
  const lead = shape.length - x.ndim;
  const target = shape.map((s, i) => (s === -1 && i >= lead ? x.shape[i - lead] : s));
  const strides = target.map((s, i) => {
    if (i < lead) return 0;
    const own = x.shape[i - lead];
    if (own === s) return x.strides[i - lead];
    if (own === 1) return 0;
    throw new ShapeError(
      `expand: the expanded size of the tensor (${s}) must match the existing size (${own}) at ` +
        `non-singleton dimension ${i}. Target sizes: ${formatShape(shape)}. Tensor sizes: ${formatShape(x.shape)}`,
    );
  });
  if (shapesEqual(target, x.shape)) return x;
  const out = viewTensor(x, target, strides, x.offset);
  return withGrad('ExpandBackward0', [x], out, () => (g) => [sumTo(g, x.shape)]);
}

export function broadcastTo(x: Tensor, shape: Shape): Tensor {
  return expand(x, broadcastShapes('broadcastTo', x.shape, shape));
}

export function sum(x: Tensor, dims?: Dims, keepdim = false): Tensor {
  const p = plan('sum', x, dims);
  const out = reduceKernel('sum', x, p.dims, keepdim ? p.keepShape : p.kept, x.dtype);
  return withGrad(dims === undefined ? 'SumBackward0' : 'SumBackward1', [x], out, () => (g) => [
    expand(reshape(g, p.keepShape), x.shape),
  ]);
}

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
