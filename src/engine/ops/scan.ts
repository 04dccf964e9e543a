/**
 * Running sums and products along a dim (torch.cumsum, torch.cumprod): the `scan` kernel over the
 * tensor with `dim` moved last and the other dims flattened into rows. A cumsum's gradient is the
 * reverse cumsum of the output's gradient (the same kernel from the row's end); a cumprod's is
 * reverse-cumsum(g · out) / x where x has no zeros, and exact with zeros too (cumprodGrad).
 */
import type { DType, ScanOp } from '../backend';
import { withGrad } from '../autograd';
import { normalizeDim, numel } from '../shape';
import type { Tensor } from '../tensor';
import { add, binaryOps, cast, div, eq, mul } from './elementwise';
import { contiguous, movedim, reshape } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, scoped } from './support';

/** The scan of each row of a 2-D [R, C] tensor, from the end when `reverse`. */
function scanRows(op: ScanOp, x: Tensor, reverse: boolean): Tensor {
  const device = inputsDevice(op === 'sum' ? 'cumsum' : 'cumprod', x);
  const out = emptyTensor(device, x.dtype, x.shape);
  if (out.numel() > 0) device.backend.scan(op, kernelView(x), reverse, kernelView(out));
  if (op === 'sum') {
    return withGrad('CumsumBackward0', [x], out, () => (g) => [scanRows('sum', g, !reverse)]);
  }
  return withGrad('CumprodBackward0', [x], out, (save) => {
    const input = save(x);
    const output = save(out);
    return (g) => [cumprodGrad(input, output, g, reverse)];
  });
}

/**
 * d(Σ g·cumprod(x))/dx along rows, exact with zeros in x. Before a row's first zero it is
 * reverse-cumsum(g·out)/x (out is 0 from the zero on, so the sum ends there); at the first zero
 * it is reverse-cumsum(g·out') with out' the cumprod of the row with that zero read as 1; after it
 * every product holds the zero, so 0.
 */
function cumprodGrad(x: Tensor, out: Tensor, g: Tensor, reverse: boolean): Tensor {
  const { keepWhere } = binaryOps;
  const zero = eq(x, 0);
  const first = mul(zero, eq(scanRows('sum', zero, reverse), 1));
  const safe = add(x, zero); // 1 where x is 0: those positions are chosen below, never divided
  const before = div(scanRows('sum', mul(g, out), !reverse), safe);
  const atFirst = scanRows('sum', mul(g, scanRows('prod', add(x, first), reverse)), !reverse);
  return add(keepWhere(before, eq(zero, 0)), keepWhere(atFirst, first));
}

function scanAlong(op: ScanOp, x: Tensor, dim: number, dtype: DType | null): Tensor {
  const name = op === 'sum' ? 'cumsum' : 'cumprod';
  inputsDevice(name, x);
  const d = normalizeDim(dim, Math.max(x.ndim, 1), name);
  return scoped(() => {
    const input = dtype !== null && dtype !== x.dtype ? cast(x, dtype) : x;
    if (input.ndim === 0) return reshape(scanRows(op, reshape(input, [1, 1]), false), []);
    const moved = movedim(input, d, -1);
    const cols = moved.shape[moved.ndim - 1];
    const rows = scanRows(
      op,
      reshape(moved, [numel(moved.shape) / Math.max(cols, 1), cols]),
      false,
    );
    return contiguous(movedim(reshape(rows, moved.shape), -1, d));
  });
}

/** torch.cumsum: y[..., i, ...] = x[..., 0, ...] + … + x[..., i, ...] along `dim`. */
export function cumsum(x: Tensor, dim: number, dtype: DType | null = null): Tensor {
  return scanAlong('sum', x, dim, dtype);
}

/** torch.cumprod: running products along `dim`. */
export function cumprod(x: Tensor, dim: number, dtype: DType | null = null): Tensor {
  return scanAlong('prod', x, dim, dtype);
}
