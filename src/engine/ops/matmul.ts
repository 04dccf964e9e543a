/**
 * Matrix products with torch.matmul's rules: 1-D operands, 2-D, and batched with broadcasting of
 * the batch dims. Only `bmm` (equal batches) reaches the kernel; the rest is views composed around
 * it, so their gradients come for free.
 */
import { withGrad } from '../autograd';
import { broadcastShapes, formatShape, numel, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { reshape, squeeze, transpose, unsqueeze } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped } from './support';

/** [B, M, K] @ [B, K, N] → [B, M, N] on any strided views. */
function bmm(a: Tensor, b: Tensor): Tensor {
  const device = inputsDevice('matmul', a, b);
  const [batch, m] = a.shape;
  const n = b.shape[2];
  const out = emptyTensor(device, 'float32', [batch, m, n]);
  if (out.numel() > 0) {
    if (a.shape[2] === 0) device.backend.fill(kernelView(out), 0);
    else device.backend.matmul(kernelView(a), kernelView(b), kernelView(out));
  }
  return withGrad('BmmBackward0', [a, b], out, (save) => {
    // Flags are read now: the inputs may be temporaries released before backward runs.
    const [needA, needB] = [a.requiresGrad, b.requiresGrad];
    const [aT, bT] = [columnMajor(a), columnMajor(b)];
    const as = needB ? save(a) : null;
    const bs = needA ? save(b) : null;
    return (g) => [
      // Each gradient comes out in its operand's layout: a transposed weight (x @ wᵀ in a linear
      // layer) gets a transposed gradient, whose own transpose back is then contiguous.
      bs ? (aT ? transpose(bmm(bs, transpose(g, 1, 2)), 1, 2) : bmm(g, transpose(bs, 1, 2))) : null,
      as ? (bT ? transpose(bmm(transpose(g, 1, 2), as), 1, 2) : bmm(transpose(as, 1, 2), g)) : null,
    ];
  });
}

/** Whether a [B, R, C] operand is stored column by column (a transposed view). */
function columnMajor(t: Tensor): boolean {
  return t.shape[1] > 1 && t.shape[2] > 1 && t.strides[1] === 1 && t.strides[2] !== 1;
}

function mismatch(a: Tensor, b: Tensor, k1: number, k2: number): ShapeError {
  return new ShapeError(
    `matmul: cannot multiply ${formatShape(a.shape)} by ${formatShape(b.shape)}: ` +
      `inner dimensions ${k1} and ${k2} differ`,
  );
}

export function matmul(a: Tensor, b: Tensor): Tensor {
  inputsDevice('matmul', a, b);
  requireFloat('matmul', a, 'first argument');
  requireFloat('matmul', b, 'second argument');
  if (a.ndim === 0 || b.ndim === 0) {
    throw new ShapeError(
      `matmul: both arguments need at least 1 dimension, got ${formatShape(a.shape)} and ${formatShape(b.shape)}`,
    );
  }
  const k1 = a.shape[a.ndim - 1];
  const k2 = b.shape[b.ndim === 1 ? 0 : b.ndim - 2];
  if (k1 !== k2) throw mismatch(a, b, k1, k2);
  return scoped(() => {
    const a2 = a.ndim === 1 ? unsqueeze(a, 0) : a;
    const b2 = b.ndim === 1 ? unsqueeze(b, 1) : b;
    const m = a2.shape[a2.ndim - 2];
    const n = b2.shape[b2.ndim - 1];
    let out: Tensor;
    if (b2.ndim === 2) {
      // [..., M, K] @ [K, N]: fold the batch into M for one large product.
      const lead = a2.shape.slice(0, -2);
      const flat = reshape(a2, [numel(lead) * m, k1]);
      const product = bmm(unsqueeze(flat, 0), unsqueeze(b2, 0));
      out = reshape(product, [...lead, m, n]);
    } else {
      const batch = broadcastShapes('matmul', a2.shape.slice(0, -2), b2.shape.slice(0, -2));
      const count = numel(batch);
      const a3 = reshape(expand(a2, [...batch, m, k1]), [count, m, k1]);
      const b3 = reshape(expand(b2, [...batch, k1, n]), [count, k1, n]);
      out = reshape(bmm(a3, b3), [...batch, m, n]);
    }
    if (a.ndim === 1) out = squeeze(out, out.ndim - 2);
    if (b.ndim === 1) out = squeeze(out, out.ndim - 1);
    return out;
  });
}

/** Transpose of a tensor with at most two dims (PyTorch's .t()). */
export function t(x: Tensor): Tensor {
  if (x.ndim > 2)
    throw new ShapeError(
      `t() expects a tensor with <= 2 dimensions, but got ${x.ndim}D ${formatShape(x.shape)}`,
    );
  return x.ndim < 2 ? x : transpose(x, 0, 1);
}
