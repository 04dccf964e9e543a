/**
 * Indexing along a dim by a tensor of indices: gather, scatter_add (each the other's gradient),
 * and the reorderings flip and roll. The kernels work along the last dim of 2-D views
 * (`gatherAlong`, `scatterAddAlong`); the ops here move `dim` last and flatten the rest around them,
 * so the gradients come from the same two kernels and the view ops' own backward.
 */
import { withGrad } from '../autograd';
import {
  broadcastShapes,
  formatShape,
  normalizeDim,
  numel,
  shapesEqual,
  ShapeError,
} from '../shape';
import type { Tensor } from '../tensor';
import { arange, full, zeros } from './creation';
import { expand } from './broadcast';
import { add, binaryOps, cast, div, eq, maximum, mul, ne } from './elementwise';
import {
  cat,
  clone,
  contiguous,
  flatten,
  indexAddRows,
  indexSelect,
  movedim,
  narrow,
  reshape,
  slice,
} from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, scoped } from './support';

function checkIndex(op: string, index: Tensor): void {
  if (index.dtype !== 'int32') {
    throw new TypeError(
      `${op}(): Expected dtype int64 for index, got ${index.dtype} (use .long() or .int())`,
    );
  }
}

/** out[r, k] = x[r, index[r, k]] for 2-D x [R, C] and index [R, K]. */
export function gatherRows(x: Tensor, index: Tensor): Tensor {
  const device = inputsDevice('gather', x, index);
  const out = emptyTensor(device, x.dtype, index.shape);
  if (out.numel() > 0)
    device.backend.gatherAlong(kernelView(x), kernelView(index), kernelView(out));
  const cols = x.shape[1];
  return withGrad('GatherBackward0', [x, index], out, (save) => {
    const idx = save(index);
    return (g) => [scatterAddRows(g, idx, cols), null];
  });
}

/** out [R, cols] = zeros with values[r, k] added at column index[r, k]; values, index: [R, K]. */
export function scatterAddRows(values: Tensor, index: Tensor, cols: number): Tensor {
  const device = inputsDevice('scatter_add', values, index);
  const out = emptyTensor(device, values.dtype, [index.shape[0], cols]);
  if (out.numel() > 0)
    device.backend.scatterAddAlong(kernelView(values), kernelView(index), kernelView(out));
  return withGrad('ScatterAddBackward0', [values, index], out, (save) => {
    const idx = save(index);
    return (g) => [gatherRows(g, idx), null];
  });
}

/** x with `dim` moved last, cut to `sizes` (index's shape, dim last), as a 2-D [R, C] view. */
function rowsOf(x: Tensor, d: number, sizes: readonly number[], keepLast: boolean): Tensor {
  let moved = movedim(x, d, -1);
  const last = sizes.length - 1;
  sizes.forEach((n, i) => {
    if ((i < last || !keepLast) && moved.shape[i] !== n) moved = narrow(moved, i, 0, n);
  });
  return reshape(moved, [numel(sizes.slice(0, last)), moved.shape[last]]);
}

/** Checks index's sizes against another tensor's (all dims, or all but `skip`) as PyTorch does. */
function checkSizes(op: string, index: Tensor, other: Tensor, name: string, skip: number): void {
  const ok = index.shape.every((n, i) => i === skip || n <= other.shape[i]);
  if (!ok) {
    throw new ShapeError(
      `${op}: Size does not match at dimension ${index.shape.findIndex((n, i) => i !== skip && n > other.shape[i])} ` +
        `expected index ${formatShape(index.shape)} to be smaller than ${name} ` +
        `${formatShape(other.shape)}${skip >= 0 ? ` apart from dimension ${skip}` : ''}`,
    );
  }
}

function checkRanks(op: string, x: Tensor, index: Tensor, what: string): void {
  if (Math.max(index.ndim, 1) !== Math.max(x.ndim, 1)) {
    throw new ShapeError(
      `${op}(): Index tensor must have the same number of dimensions as ${what} tensor ` +
        `(index ${formatShape(index.shape)}, ${what} ${formatShape(x.shape)})`,
    );
  }
}

/** torch.gather: out[i][j][k] = x[i][index[i][j][k]][k] along `dim`; out has index's shape. */
export function gather(x: Tensor, dim: number, index: Tensor): Tensor {
  inputsDevice('gather', x, index);
  checkIndex('gather', index);
  checkRanks('gather', x, index, 'input');
  if (x.ndim === 0 || index.ndim === 0) {
    return scoped(() =>
      reshape(gather(reshape(x, [1]), 0, reshape(index, [1])), index.ndim === 0 ? [] : [1]),
    );
  }
  const d = normalizeDim(dim, x.ndim, 'gather');
  checkSizes('gather', index, x, 'self', d);
  return scoped(() => {
    const moved = movedim(index, d, -1);
    const rows = gatherRows(rowsOf(x, d, moved.shape, true), rowsOf(index, d, moved.shape, true));
    return contiguous(movedim(reshape(rows, moved.shape), -1, d));
  });
}

/** torch.scatter_add: x with src[i][j][k] added at [i][index[i][j][k]][k] along `dim`. */
export function scatterAdd(x: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  inputsDevice('scatter_add', x, index, src);
  checkIndex('scatter_add', index);
  checkRanks('scatter_add', x, index, 'self');
  checkRanks('scatter_add', src, index, 'src');
  if (src.dtype !== x.dtype) {
    throw new TypeError(
      `scatter_add(): Expected self.dtype to be equal to src.dtype (${x.dtype} and ${src.dtype})`,
    );
  }
  if (x.ndim === 0 || index.ndim === 0) {
    return scoped(() =>
      reshape(scatterAdd(reshape(x, [1]), 0, reshape(index, [1]), reshape(src, [1])), x.shape),
    );
  }
  const d = normalizeDim(dim, x.ndim, 'scatter_add');
  checkSizes('scatter_add', index, x, 'self', d);
  checkSizes('scatter_add', index, src, 'src', -1);
  if (index.numel() === 0) return scoped(() => clone(x));
  return scoped(() => {
    const moved = movedim(index, d, -1);
    const cols = x.shape[d];
    const summed = scatterAddRows(
      rowsOf(src, d, moved.shape, false),
      rowsOf(index, d, moved.shape, true),
      cols,
    );
    // Back to x's layout, zero-padded where index is smaller than x in the other dims.
    let z = reshape(summed, [...moved.shape.slice(0, -1), cols]);
    const target = movedim(x, d, -1).shape;
    target.forEach((n, i) => {
      if (z.shape[i] < n) {
        const padShape = [...z.shape];
        padShape[i] = n - z.shape[i];
        z = cat([z, zeros(padShape, { device: x.deviceObject, dtype: x.dtype })], i);
      }
    });
    return cast(add(x, movedim(z, -1, d)), x.dtype);
  });
}

/**
 * torch.scatter: x with src (a tensor, or one number) written at index along `dim`. Made of
 * scatter_add: a count of the writes per element, then a select. Where an index repeats, PyTorch
 * keeps one of the writes, unspecified which; here a repeated element gets the mean of its writes
 * (the same value when src is a number, as in one-hot encoding).
 */
export function scatter(x: Tensor, dim: number, index: Tensor, src: Tensor | number): Tensor {
  const device = inputsDevice('scatter', x, index);
  if (typeof src !== 'number' && src.dtype !== x.dtype) {
    throw new TypeError(
      `scatter(): Expected self.dtype to be equal to src.dtype (${x.dtype} and ${src.dtype})`,
    );
  }
  const { keepWhere } = binaryOps;
  return scoped(() => {
    const none = zeros(x.shape, { device, dtype: 'float32' });
    const ones = full(index.shape, 1, { device, dtype: 'float32' });
    const count = scatterAdd(none, dim, index, ones);
    const written =
      typeof src === 'number'
        ? src
        : div(scatterAdd(cast(none, x.dtype), dim, index, src), maximum(count, 1));
    return cast(add(keepWhere(x, eq(count, 0)), keepWhere(written, ne(count, 0))), x.dtype);
  });
}

/** torch.index_add: x with alpha · source's slices added at the positions `index` names along dim. */
export function indexAdd(x: Tensor, dim: number, index: Tensor, source: Tensor, alpha = 1): Tensor {
  inputsDevice('index_add', x, index, source);
  checkIndex('index_add', index);
  if (index.ndim > 1)
    throw new ShapeError(
      `index_add_(): Index is supposed to be a vector, got ${formatShape(index.shape)}`,
    );
  const d = normalizeDim(dim, Math.max(x.ndim, 1), 'index_add');
  const n = index.numel();
  const expected = x.ndim === 0 ? [n] : x.shape.map((s, i) => (i === d ? n : s));
  if (!shapesEqual(source.ndim === 0 ? [1] : source.shape, expected)) {
    throw new ShapeError(
      `index_add_(): source ${formatShape(source.shape)} must have the shape of self ` +
        `${formatShape(x.shape)} with dim ${d} of size ${n} (index's length)`,
    );
  }
  if (x.ndim === 0) {
    return scoped(() =>
      reshape(indexAdd(reshape(x, [1]), 0, reshape(index, [1]), reshape(source, [1]), alpha), []),
    );
  }
  return scoped(() => {
    const moved = movedim(source, d, 0);
    const rest = moved.shape.slice(1);
    const rows = indexAddRows(reshape(moved, [n, numel(rest)]), reshape(index, [n]), x.shape[d]);
    const added = movedim(reshape(rows, [x.shape[d], ...rest]), 0, d);
    return cast(add(x, alpha === 1 ? added : mul(added, alpha)), x.dtype);
  });
}

/** torch.take_along_dim: gather with index broadcast against x (or both flattened without dim). */
export function takeAlongDim(x: Tensor, index: Tensor, dim: number | null): Tensor {
  if (dim === null) return scoped(() => gather(flatten(x), 0, flatten(index)));
  inputsDevice('take_along_dim', x, index);
  if (x.ndim !== index.ndim) {
    throw new ShapeError(
      `torch.take_along_dim(): input and indices should have the same number of dimensions, ` +
        `but got ${x.ndim} dimensions for input, and ${index.ndim} dimensions for indices`,
    );
  }
  const d = normalizeDim(dim, x.ndim, 'take_along_dim');
  const shape = broadcastShapes(
    'take_along_dim',
    x.shape.map((s, i) => (i === d ? 1 : s)),
    index.shape.map((s, i) => (i === d ? 1 : s)),
  );
  return scoped(() =>
    gather(
      expand(
        x,
        shape.map((s, i) => (i === d ? x.shape[d] : s)),
      ),
      d,
      expand(
        index,
        shape.map((s, i) => (i === d ? index.shape[d] : s)),
      ),
    ),
  );
}

/** torch.flip: the order of elements reversed along each of `dims`. */
export function flip(x: Tensor, dims: readonly number[]): Tensor {
  const device = inputsDevice('flip', x);
  const list = dims.map((d) => normalizeDim(d, Math.max(x.ndim, 1), 'flip'));
  if (new Set(list).size !== list.length)
    throw new ShapeError(`flip: dims has duplicates: [${dims.join(', ')}]`);
  if (x.ndim === 0) return scoped(() => clone(x));
  return scoped(() => {
    let out = x;
    for (const d of list) {
      const n = x.shape[d];
      out = indexSelect(out, d, arange(n - 1, -1, -1, { device, dtype: 'int32' }));
    }
    return list.length === 0 ? clone(x) : out;
  });
}

/** torch.roll: elements shifted along dims (or the flattened tensor), wrapping around. */
export function roll(x: Tensor, shifts: readonly number[], dims: readonly number[]): Tensor {
  inputsDevice('roll', x);
  if (dims.length === 0) {
    if (shifts.length !== 1)
      throw new ShapeError(`roll: shifts must have one element when dims is not given`);
    return scoped(() => reshape(roll(flatten(x), shifts, [0]), x.shape));
  }
  if (shifts.length !== dims.length) {
    throw new ShapeError(
      `roll: shifts and dimensions must align. shifts: ${shifts.length}, dims: ${dims.length}`,
    );
  }
  return scoped(() => {
    let out = x;
    dims.forEach((dim, i) => {
      const d = normalizeDim(dim, x.ndim, 'roll');
      const n = x.shape[d];
      const s = n === 0 ? 0 : ((shifts[i] % n) + n) % n;
      if (s !== 0) out = cat([slice(out, d, n - s, n), slice(out, d, 0, n - s)], d);
    });
    return out === x ? clone(x) : out;
  });
}

/**
 * torch.masked_fill: `value` where `mask` (broadcast to x's shape) is nonzero, else x. A select
 * (the element-wise table's keepWhere), not a product, so a masked-out infinity in x, or an
 * infinite `value` (attention's -inf), never makes a NaN.
 */
export function maskedFill(x: Tensor, mask: Tensor, value: number | Tensor): Tensor {
  inputsDevice('masked_fill', x, mask);
  if (!shapesEqual(broadcastShapes('masked_fill', x.shape, mask.shape), x.shape)) {
    throw new ShapeError(
      `masked_fill: the mask of shape ${formatShape(mask.shape)} cannot be broadcast to the ` +
        `input's shape ${formatShape(x.shape)}`,
    );
  }
  if (typeof value !== 'number' && value.ndim !== 0) {
    throw new ShapeError(
      `masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ` +
        `${value.ndim} dimension(s).`,
    );
  }
  const { keepWhere } = binaryOps;
  return scoped(() => cast(add(keepWhere(x, eq(mask, 0)), keepWhere(value, ne(mask, 0))), x.dtype));
}
