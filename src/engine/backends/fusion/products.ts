/**
 * Matrix products a fused chain takes as element-wise steps, so they cost no dispatch of their
 * own (backends/fusion/):
 * - a product with a tiny K (a linear layer of two inputs): out = Σ_k a[:, k] · b[k, :], K
 *   multiplies and K − 1 adds over broadcast views of a's columns and b's rows;
 * - a product that contracts one of the chain's steps over the whole chain, with a few outputs
 *   (a weight's gradient xᵀ @ g where g is the step): each output element is the sum over the
 *   chain of the step times a column of the other operand, a reduction of the chain.
 * Both compute the product's own sums in another order, so results agree within float32
 * rounding. Either the whole product joins the chain or nothing does (`Chain.atomically`). The
 * recorder offers products only where the backend's fusion limits allow them (`products`).
 */
import type { DeviceBuffer, OutView, View } from '../../backend';
import { contiguousStrides, numel } from '../../shape';
import { isPlain, type Chain } from './chain';

/** The largest K computed as steps: each k takes two inputs (a column of a, a row of b). */
export const MAX_STEP_K = 3;

/** The name of a step whose values live only inside the fused kernel: never allocated. */
function scratchBuffer(): DeviceBuffer {
  return { bytes: 0 };
}

/** `out = a @ b` (a: [B, M, K], b: [B, K, N], as the matmul kernel) added to `chain`, or false. */
export function tryProduct(chain: Chain, a: View, b: View, out: OutView): boolean {
  if (a.dtype !== 'float32' || b.dtype !== 'float32' || out.dtype !== 'float32') return false;
  if (!isPlain(out, out.shape) || a.buffer === out.buffer || b.buffer === out.buffer) return false;
  return (
    chain.atomically(() => smallK(chain, a, b, out)) ||
    chain.atomically(() => contraction(chain, a, b, out))
  );
}

function smallK(chain: Chain, a: View, b: View, out: OutView): boolean {
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  if (k < 1 || k > MAX_STEP_K) return false;
  // Without a batch the chain has the product's 2-D shape, which the ops after it use.
  const shape = batch === 1 ? [m, n] : [batch, m, n];
  const over = (view: View, strides: number[], offset: number): View => ({
    buffer: view.buffer,
    dtype: view.dtype,
    shape,
    strides: batch === 1 ? strides.slice(1) : strides,
    offset,
  });
  const target: View = { ...out, shape, strides: contiguousStrides(shape) };
  const scratch: DeviceBuffer[] = [];
  const temporary = (): View => {
    const buffer = scratchBuffer();
    scratch.push(buffer);
    return { buffer, dtype: 'float32', shape, strides: contiguousStrides(shape), offset: 0 };
  };
  let sum: View | null = null;
  for (let i = 0; i < k; i++) {
    const column = over(a, [a.strides[0], a.strides[1], 0], a.offset + i * a.strides[2]);
    const row = over(b, [b.strides[0], 0, b.strides[2]], b.offset + i * b.strides[1]);
    const last = i === k - 1;
    const product: View = last && sum === null ? target : temporary();
    if (!chain.tryAdd({ kind: 'binary', op: 'mul', a: column, b: row, out: product })) return false;
    if (sum === null) sum = product;
    else {
      const next: View = last ? target : temporary();
      if (!chain.tryAdd({ kind: 'binary', op: 'add', a: sum, b: product, out: next })) return false;
      sum = next;
    }
  }
  scratch.forEach((buffer) => chain.drop(buffer));
  return true;
}

function contraction(chain: Chain, a: View, b: View, out: OutView): boolean {
  const shape = chain.stepShape;
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  if (shape === null || batch !== 1 || k !== numel(shape) || chain.uses(out.buffer)) return false;
  // The step is a's only row or b's only column; the other operand gives one vector per output.
  const along = (view: View, stride: number): View => ({
    ...view,
    shape: [k],
    strides: [stride],
  });
  const stepOf = (view: View, stride: number) =>
    chain.plainStep(along(view, stride)) === null ? null : view.buffer;
  let step: DeviceBuffer | null = null;
  let vectors: { other: View; count: number; kStride: number; stride: number } | null = null;
  if (m === 1 && (step = stepOf(a, a.strides[2])) !== null) {
    vectors = { other: b, count: n, kStride: b.strides[1], stride: b.strides[2] };
  } else if (n === 1 && (step = stepOf(b, b.strides[1])) !== null) {
    vectors = { other: a, count: m, kStride: a.strides[2], stride: a.strides[1] };
  }
  if (step === null || vectors === null) return false;
  const { other, count, kStride, stride } = vectors;
  const flat = contiguousStrides(shape);
  const values: View = { buffer: step, dtype: 'float32', shape, strides: flat, offset: 0 };
  for (let j = 0; j < count; j++) {
    const vector: View = {
      buffer: other.buffer,
      dtype: 'float32',
      shape,
      strides: flat.map((s) => s * kStride),
      offset: other.offset + j * stride,
    };
    const product: View = { ...values, buffer: scratchBuffer() };
    if (!chain.tryAdd({ kind: 'binary', op: 'mul', a: values, b: vector, out: product })) {
      return false;
    }
    const index = chain.plainStep(product);
    const into: View = { ...out, shape: [1], strides: [1], offset: j };
    if (index === null || !chain.addReduction('sum', index, k, into)) return false;
    // Only the sum reads the product: it is not written, and takes no binding.
    chain.drop(product.buffer);
  }
  return true;
}
