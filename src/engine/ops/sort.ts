/**
 * Sorting along a dim: torch.sort, argsort, topk, kthvalue and median. The `sortRows` kernel sorts rows of a 2-D
 * view (dim moved last, the other dims flattened); the values' gradient puts each gradient back at
 * the element it came from, a scatter-add by the indices (index-ops.ts). Ties keep their order
 * (a stable sort) and NaN sorts as the largest value, as PyTorch's CPU sort does.
 */
import { withGrad } from '../autograd';
import { normalizeDim, numel, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { scatterAddRows } from './index-ops';
import { contiguous, flatten, movedim, narrow, reshape, squeeze } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, scoped, scopedAll } from './support';

/** Each row of a 2-D [R, C] tensor sorted: [values, int32 indices]. */
function sortRows(x: Tensor, descending: boolean): [Tensor, Tensor] {
  const device = inputsDevice('sort', x);
  const values = emptyTensor(device, x.dtype, x.shape);
  const indices = emptyTensor(device, 'int32', x.shape);
  if (x.numel() > 0) {
    device.backend.sortRows(kernelView(x), descending, kernelView(values), kernelView(indices));
  }
  const cols = x.shape[1];
  const tracked = withGrad('SortBackward0', [x], values, (save) => {
    const idx = save(indices);
    return (g) => [scatterAddRows(g, idx, cols)];
  });
  return [tracked, indices];
}

/** Sorts along `dim` and keeps the first `k` of each row (all when k is null). */
function sortAlong(
  op: string,
  x: Tensor,
  dim: number,
  descending: boolean,
  k: number | null,
): [Tensor, Tensor] {
  inputsDevice(op, x);
  const d = normalizeDim(dim, Math.max(x.ndim, 1), op);
  const size = x.ndim === 0 ? 1 : x.shape[d];
  if (k !== null && (!Number.isInteger(k) || k < 0 || k > size))
    throw new RangeError(`${op}(): selected index k out of range (k = ${k}, dim size ${size})`);
  return scopedAll(() => {
    const moved = x.ndim === 0 ? reshape(x, [1]) : movedim(x, d, -1);
    const cols = moved.shape[moved.ndim - 1];
    const rows = reshape(moved, [numel(moved.shape) / Math.max(cols, 1), cols]);
    const pair = sortRows(rows, descending);
    const kept = k ?? cols;
    const shape = [...moved.shape.slice(0, -1), kept];
    return pair.map((t) => {
      const cut = kept === cols ? t : narrow(t, 1, 0, kept);
      const back = reshape(cut, shape);
      return x.ndim === 0 ? reshape(back, []) : contiguous(movedim(back, -1, d));
    }) as [Tensor, Tensor];
  });
}

/** torch.sort: [values, indices] along `dim`, ascending unless `descending`. */
export function sort(x: Tensor, dim = -1, descending = false): [Tensor, Tensor] {
  return sortAlong('sort', x, dim, descending, null);
}

/** torch.argsort: the indices that sort `x` along `dim`. */
export function argsort(x: Tensor, dim = -1, descending = false): Tensor {
  return scoped(() => sortAlong('argsort', x, dim, descending, null)[1]);
}

/** torch.topk: the k largest (or smallest) elements along `dim` and their indices, sorted. */
export function topk(x: Tensor, k: number, dim = -1, largest = true): [Tensor, Tensor] {
  if (x.ndim === 0 && k > 1) throw new ShapeError(`topk(): selected index k out of range`);
  return sortAlong('topk', x, dim, largest, k);
}

/** torch.kthvalue: the k-th smallest element along `dim` (k from 1) and its index. */
export function kthvalue(x: Tensor, k: number, dim = -1, keepdim = false): [Tensor, Tensor] {
  const d = normalizeDim(dim, Math.max(x.ndim, 1), 'kthvalue');
  const size = x.ndim === 0 ? 1 : x.shape[d];
  if (!Number.isInteger(k) || k < 1 || k > size) {
    throw new RangeError(
      `kthvalue(): selected number k out of range for dimension ${d} (k = ${k}, size ${size})`,
    );
  }
  return scopedAll(
    () =>
      sortAlong('kthvalue', x, d, false, k).map((t) => {
        if (x.ndim === 0) return t;
        const picked = narrow(t, d, k - 1, 1);
        return keepdim ? picked : squeeze(picked, d);
      }) as [Tensor, Tensor],
  );
}

/** torch.median along `dim`: the lower median (the ⌈n/2⌉-th smallest) and its index. */
export function medianAlong(x: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  const size = x.ndim === 0 ? 1 : x.shape[normalizeDim(dim, x.ndim, 'median')];
  if (size === 0) throw new RangeError('median(): cannot compute the median of an empty dimension');
  return kthvalue(x, Math.floor((size - 1) / 2) + 1, dim, keepdim);
}

/** torch.median without a dim: the lower median of all elements, a 0-d tensor. */
export function median(x: Tensor): Tensor {
  if (x.numel() === 0) throw new RangeError('median() input tensor cannot be empty');
  return scoped(() => reshape(medianAlong(flatten(x), 0)[0], []));
}
