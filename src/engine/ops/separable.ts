/**
 * Linear maps applied along one spatial axis: average pooling (plain and adaptive) and linear
 * interpolation are each a fixed [out, in] weight matrix per axis, and a 2-D one is the two axes'
 * maps in turn (their weights multiply: a window's 1/(kH·kW) is 1/kH times 1/kW). Applying them as
 * matrix products gives both backends and the gradient (the transposed product) for free.
 */
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { fromHost } from './creation';
import { matmul } from './matmul';
import { squeeze, unsqueeze } from './shape-ops';
import { inputsDevice, requireFloat, scoped } from './support';

/** A row-major [out, in] matrix of weights along one axis. */
export interface AxisMap {
  out: number;
  in: number;
  weights: Float32Array;
}

/** Whether the map leaves the axis unchanged (then no product is needed). */
function isIdentity(m: AxisMap): boolean {
  if (m.out !== m.in) return false;
  for (let o = 0; o < m.out; o++)
    for (let i = 0; i < m.in; i++) if (m.weights[o * m.in + i] !== (o === i ? 1 : 0)) return false;
  return true;
}

/** x [..., in] → [..., out] (axis -1) or x [..., in, W] → [..., out, W] (axis -2). */
export function alongAxis(x: Tensor, axis: -1 | -2, m: AxisMap): Tensor {
  if (isIdentity(m)) return x;
  const device = x.deviceObject;
  if (axis === -1) {
    // Wᵀ [in, out] built directly, so the product folds x's batch into one large product.
    const t = new Float32Array(m.in * m.out);
    for (let o = 0; o < m.out; o++)
      for (let i = 0; i < m.in; i++) t[i * m.out + o] = m.weights[o * m.in + i];
    return matmul(x, fromHost(t, [m.in, m.out], { device }));
  }
  return matmul(fromHost(m.weights, [m.out, m.in], { device }), x);
}

/**
 * Checks x is a float [C, L] / [N, C, L] (dims 1) or [C, H, W] / [N, C, H, W] (dims 2) and runs
 * `run` on the batched form, removing the batch dim again for an unbatched input.
 */
export function spatial(
  name: string,
  x: Tensor,
  dims: 1 | 2,
  run: (batched: Tensor) => Tensor,
): Tensor {
  inputsDevice(name, x);
  requireFloat(name, x);
  if (x.ndim !== dims + 1 && x.ndim !== dims + 2) {
    const want = dims === 1 ? '[N, C, L] or [C, L]' : '[N, C, H, W] or [C, H, W]';
    throw new ShapeError(
      `${name}: expected a ${dims + 1}-D or ${dims + 2}-D input ${want}, got ${formatShape(x.shape)}`,
    );
  }
  if (x.ndim === dims + 2) return scoped(() => run(x));
  return scoped(() => squeeze(run(unsqueeze(x, 0)), 0));
}
