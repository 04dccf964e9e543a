/**
 * Ops made of an index mask: eye, tril/triu, where, diag and trace. The masks are built on the
 * tensor's device from two aranges compared (row index against column index), never by a host
 * loop, and applied with the element-wise table's `keepWhere` (a select, so a masked-out infinity
 * gives 0, not NaN: `torch.triu(torch.full((n, n), -inf), 1)` is the causal attention mask).
 * Gradients come from the ops they are made of.
 */
import type { DType } from '../backend';
import type { Device } from '../devices/device';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { arange, zeros } from './creation';
import { add, binaryOps, cast, eq, ge, le, ne, sub } from './elementwise';
import { sum } from './reduce';
import { cat, narrow, reshape } from './shape-ops';
import { inputsDevice, scoped, type Operand } from './support';

const { keepWhere } = binaryOps;

/** `col - row` for an [n, m] grid, as int32 on `device`. */
function offsets(n: number, m: number, device: Device): Tensor {
  return scoped(() => {
    const rows = reshape(arange(0, n, 1, { device, dtype: 'int32' }), [n, 1]);
    const cols = reshape(arange(0, m, 1, { device, dtype: 'int32' }), [1, m]);
    return sub(cols, rows);
  });
}

function matrixDims(op: string, x: Tensor): [number, number] {
  if (x.ndim < 2) {
    throw new ShapeError(
      `${op}: input tensor must have at least 2 dimensions, got ${formatShape(x.shape)}`,
    );
  }
  return [x.shape[x.ndim - 2], x.shape[x.ndim - 1]];
}

/** The identity matrix [n, m] (ones where row == column). */
export function eye(n: number, m: number, options: { device: Device; dtype?: DType }): Tensor {
  for (const [name, v] of [
    ['n', n],
    ['m', m],
  ] as const) {
    if (!Number.isInteger(v) || v < 0)
      throw new RangeError(`eye: ${name} must be greater or equal to 0, got ${v}`);
  }
  return scoped(() => cast(eq(offsets(n, m, options.device), 0), options.dtype ?? 'float32'));
}

/** The lower triangle of the last two dims: elements with col - row <= diagonal, else 0. */
export function tril(x: Tensor, diagonal = 0): Tensor {
  const [n, m] = matrixDims('tril', x);
  const device = inputsDevice('tril', x);
  return scoped(() => keepWhere(x, le(offsets(n, m, device), diagonal)));
}

/** The upper triangle of the last two dims: elements with col - row >= diagonal, else 0. */
export function triu(x: Tensor, diagonal = 0): Tensor {
  const [n, m] = matrixDims('triu', x);
  const device = inputsDevice('triu', x);
  return scoped(() => keepWhere(x, ge(offsets(n, m, device), diagonal)));
}

/**
 * torch.where(condition, x, y): x where condition is nonzero, else y, all three broadcast
 * together; x and y may be numbers. Gradients flow to x and y where each is chosen.
 */
export function where(condition: Tensor, x: Operand, y: Operand): Tensor {
  inputsDevice('where', condition, x, y);
  return scoped(() => {
    const chosen = ne(condition, 0);
    return add(keepWhere(x, chosen), keepWhere(y, eq(chosen, 0)));
  });
}

/**
 * torch.diag: of a vector, the square matrix with it on diagonal `diagonal`; of a matrix, that
 * diagonal as a vector.
 */
export function diag(x: Tensor, diagonal = 0): Tensor {
  const device = inputsDevice('diag', x);
  const k = diagonal;
  if (x.ndim === 1) {
    const len = x.shape[0];
    const n = len + Math.abs(k);
    return scoped(() => {
      const padded = k === 0 ? x : cat([x, zeros([Math.abs(k)], { device, dtype: x.dtype })], 0);
      // Row i holds v[i] when k >= 0 (entry (i, i + k)); column j holds v[j] when k < 0.
      const values = expand(reshape(padded, k >= 0 ? [n, 1] : [1, n]), [n, n]);
      return keepWhere(values, eq(offsets(n, n, device), k));
    });
  }
  if (x.ndim !== 2) {
    throw new ShapeError(`diag: expected a 1-D or 2-D tensor, got ${formatShape(x.shape)}`);
  }
  const [n, m] = x.shape;
  const len = Math.max(0, k >= 0 ? Math.min(n, m - k) : Math.min(n + k, m));
  return scoped(() => {
    const masked = keepWhere(x, eq(offsets(n, m, device), k));
    // Each row (k >= 0) or column (k < 0) holds at most one diagonal element: sum it out.
    return narrow(sum(masked, k >= 0 ? 1 : 0), 0, 0, len);
  });
}

/** The sum of the main diagonal of a 2-D tensor. */
export function trace(x: Tensor): Tensor {
  if (x.ndim !== 2)
    throw new ShapeError(`trace: expected a matrix, but got tensor with dim ${x.ndim}`);
  const device = inputsDevice('trace', x);
  return scoped(() => sum(keepWhere(x, eq(offsets(x.shape[0], x.shape[1], device), 0))));
}
