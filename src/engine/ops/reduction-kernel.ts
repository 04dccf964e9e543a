/** How every reduction op runs its kernel: which dims it reduces, and the reduce kernel over them. */
import type { DType, ReduceOp } from '../backend';
import { normalizeDims, type Shape } from '../shape';
import type { Tensor } from '../tensor';
import { emptyTensor, inputsDevice } from './support';

export type Dims = number | readonly number[] | undefined;

/** The reduced dims (sorted), and the output shape with and without keepdim. */
export function plan(
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
export function reduceKernel(
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
