/**
 * Shape ops. Most are views (new strides over the same memory, no kernel): reshape/view, permute,
 * transpose, squeeze/unsqueeze, expand, slice/narrow/select. Copies: contiguous, clone, cat/stack,
 * indexSelect. Each backward sits beside its forward.
 */
import { withGrad, type Node } from '../autograd';
import { promoteTypes } from '../dtype';
import {
  contiguousStrides,
  formatShape,
  inferShape,
  isContiguous,
  normalizeDim,
  numel,
  shapesEqual,
  ShapeError,
  viewStrides,
  type Shape,
} from '../shape';
import type { Tensor } from '../tensor';
import { cast } from './cast';
import { emptyTensor, inputsDevice, kernelView, scoped, viewTensor } from './support';

// ---------------------------------------------------------------------------------------------
// Views.

function viewAs(x: Tensor, shape: number[], op: string): Tensor {
  inputsDevice(op, x);
  const strides = viewStrides(x.shape, x.strides, shape);
  if (strides === null) {
    throw new ShapeError(
      `${op}: view size is not compatible with input tensor's size and stride (at least one ` +
        `dimension spans across two contiguous subspaces). Use .reshape(...) instead.`,
    );
  }
  const out = viewTensor(x, shape, strides, x.offset);
  return withGrad(
    op === 'view' ? 'ViewBackward0' : 'ReshapeAliasBackward0',
    [x],
    out,
    () => (g) => [reshape(g, x.shape)],
  );
}

/** Same data in another shape (one size may be -1); copies only when the layout requires it. */
export function reshape(x: Tensor, shape: Shape): Tensor {
  const target = inferShape(shape, x.numel(), 'reshape', x.shape);
  if (shapesEqual(target, x.shape)) return x;
  if (viewStrides(x.shape, x.strides, target) !== null) return viewAs(x, target, 'reshape');
  return scoped(() => viewAs(clone(x), target, 'reshape'));
}

/** As reshape, but never copies: fails like PyTorch when the layout does not allow a view. */
export function view(x: Tensor, shape: Shape): Tensor {
  return viewAs(x, inferShape(shape, x.numel(), 'view', x.shape), 'view');
}

export function flatten(x: Tensor, startDim = 0, endDim = -1): Tensor {
  if (x.ndim === 0) return reshape(x, [1]);
  const s = normalizeDim(startDim, x.ndim, 'flatten');
  const e = normalizeDim(endDim, x.ndim, 'flatten');
  if (s > e) throw new ShapeError('flatten: startDim cannot come after endDim');
  const merged = x.shape.slice(s, e + 1).reduce((n, d) => n * d, 1);
  return reshape(x, [...x.shape.slice(0, s), merged, ...x.shape.slice(e + 1)]);
}

export function permute(x: Tensor, dims: readonly number[]): Tensor {
  inputsDevice('permute', x);
  if (dims.length !== x.ndim) {
    throw new ShapeError(
      `permute: number of dims don't match (input has ${x.ndim} dims, got ${dims.length}: [${dims.join(', ')}])`,
    );
  }
  const perm = dims.map((d) => normalizeDim(d, x.ndim, 'permute'));
  if (new Set(perm).size !== perm.length)
    throw new ShapeError(`permute: repeated dim in [${dims.join(', ')}]`);
  const out = viewTensor(
    x,
    perm.map((d) => x.shape[d]),
    perm.map((d) => x.strides[d]),
    x.offset,
  );
  const inverse = new Array<number>(perm.length);
  perm.forEach((d, i) => (inverse[d] = i));
  return withGrad('PermuteBackward0', [x], out, () => (g) => [permute(g, inverse)]);
}

export function transpose(x: Tensor, dim0: number, dim1: number): Tensor {
  const a = normalizeDim(dim0, x.ndim, 'transpose');
  const b = normalizeDim(dim1, x.ndim, 'transpose');
  const perm = x.shape.map((_, i) => i);
  perm[a] = b;
  perm[b] = a;
  return permute(x, perm);
}

/** Moves one dim to a new position, keeping the others in order. */
export function movedim(x: Tensor, source: number, destination: number): Tensor {
  const s = normalizeDim(source, x.ndim, 'movedim');
  const d = normalizeDim(destination, x.ndim, 'movedim');
  const order = x.shape.map((_, i) => i).filter((i) => i !== s);
  order.splice(d, 0, s);
  return permute(x, order);
}

/** Removes size-1 dims (all of them, or those listed; listed dims of other sizes stay). */
export function squeeze(x: Tensor, dims?: number | readonly number[]): Tensor {
  const list =
    dims === undefined
      ? x.shape.map((_, i) => i)
      : (typeof dims === 'number' ? [dims] : dims).map((d) => normalizeDim(d, x.ndim, 'squeeze'));
  const drop = new Set(list.filter((d) => x.shape[d] === 1));
  if (drop.size === 0) return x;
  inputsDevice('squeeze', x);
  const out = viewTensor(
    x,
    x.shape.filter((_, i) => !drop.has(i)),
    x.strides.filter((_, i) => !drop.has(i)),
    x.offset,
  );
  return withGrad('SqueezeBackward0', [x], out, () => (g) => [reshape(g, x.shape)]);
}

export function unsqueeze(x: Tensor, dim: number): Tensor {
  inputsDevice('unsqueeze', x);
  const d = normalizeDim(dim, x.ndim + 1, 'unsqueeze');
  const shape = [...x.shape];
  const strides = [...x.strides];
  shape.splice(d, 0, 1);
  strides.splice(d, 0, d < x.ndim ? x.shape[d] * x.strides[d] : 1);
  const out = viewTensor(x, shape, strides, x.offset);
  return withGrad('UnsqueezeBackward0', [x], out, () => (g) => [reshape(g, x.shape)]);
}

/** Python slicing x[start:end:step] along dim: negative indices count from the end, bounds clamp. */
export function slice(
  x: Tensor,
  dim: number,
  start: number | null,
  end: number | null,
  step = 1,
): Tensor {
  inputsDevice('slice', x);
  const d = normalizeDim(dim, x.ndim, 'slice');
  if (!Number.isInteger(step) || step <= 0)
    throw new ShapeError(`slice: step must be a positive integer, got ${step}`);
  const size = x.shape[d];
  const clampIndex = (i: number): number => Math.min(Math.max(i < 0 ? i + size : i, 0), size);
  const s = start === null ? 0 : clampIndex(start);
  const e = Math.max(end === null ? size : clampIndex(end), s);
  const length = Math.ceil((e - s) / step);
  const shape = [...x.shape];
  const strides = [...x.strides];
  shape[d] = length;
  strides[d] = x.strides[d] * step;
  const out = viewTensor(x, shape, strides, x.offset + s * x.strides[d]);
  withGrad('SliceBackward0', [x], out, () => (g) => [sliceBackward(g, x.shape, d, s, step)]);
  if (out.res.node !== null)
    sliceNodes.set(out.res.node, { shape: x.shape, dim: d, start: s, step });
  return out;
}

/** Where a slice node's gradient goes in its input: the input's shape and the sliced range. */
export interface SliceSpec {
  readonly shape: Shape;
  readonly dim: number;
  readonly start: number;
  readonly step: number;
}

const sliceNodes = new WeakMap<Node, SliceSpec>();

/**
 * The slice a SliceBackward0 node took, for backward's accumulation: a loop that slices one
 * tensor T times (an RNN's time steps) would otherwise sum T zero-padded full-size gradients,
 * O(T²) work; backward instead adds each piece into one buffer (backward.ts, addSliceGrads).
 */
export function sliceOfNode(node: Node): SliceSpec | undefined {
  return sliceNodes.get(node);
}

/** The gradient of a slice: zeros of the input's shape with g written into the sliced part. */
function sliceBackward(g: Tensor, shape: Shape, dim: number, start: number, step: number): Tensor {
  const device = inputsDevice('slice backward', g);
  const out = emptyTensor(device, g.dtype, shape);
  device.backend.fill(kernelView(out), 0);
  if (g.numel() > 0) {
    const strides = contiguousStrides(shape);
    const target = {
      ...kernelView(out),
      shape: g.shape,
      strides: strides.map((s, i) => (i === dim ? s * step : s)),
      offset: start * strides[dim],
    };
    device.backend.assign(kernelView(g), target);
  }
  return withGrad('SliceBackwardBackward0', [g], out, () => (gg) => [
    slice(gg, dim, start, start + (g.shape[dim] - 1) * step + 1, step),
  ]);
}

export function narrow(x: Tensor, dim: number, start: number, length: number): Tensor {
  const d = normalizeDim(dim, x.ndim, 'narrow');
  const s = start < 0 ? start + x.shape[d] : start;
  if (s < 0 || length < 0 || s + length > x.shape[d]) {
    throw new ShapeError(
      `narrow: start (${start}) + length (${length}) exceeds dimension size (${x.shape[d]})`,
    );
  }
  return slice(x, d, s, s + length);
}

/** x.select(dim, i): the slice at index i, with that dim removed. */
export function select(x: Tensor, dim: number, index: number): Tensor {
  const d = normalizeDim(dim, x.ndim, 'select');
  const size = x.shape[d];
  if (!Number.isInteger(index) || index < -size || index >= size) {
    throw new ShapeError(
      `select: index ${index} is out of range for dimension ${d} with size ${size}`,
    );
  }
  const i = index < 0 ? index + size : index;
  return scoped(() => squeeze(slice(x, d, i, i + 1), d));
}

// ---------------------------------------------------------------------------------------------
// Copies.

export function clone(x: Tensor): Tensor {
  const device = inputsDevice('clone', x);
  const out = emptyTensor(device, x.dtype, x.shape);
  if (out.numel() > 0) device.backend.unary('copy', kernelView(x), kernelView(out));
  return withGrad('CloneBackward0', [x], out, () => (g) => [g]);
}

export function contiguous(x: Tensor): Tensor {
  return isContiguous(x.shape, x.strides) ? x : clone(x);
}

/** Joins tensors along an existing dim. */
export function cat(tensors: readonly Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new ShapeError('cat: expected a non-empty list of tensors');
  const device = inputsDevice('cat', ...tensors);
  // PyTorch skips legacy 1-D empty tensors in cat.
  const parts = tensors.filter((t) => !(t.ndim === 1 && t.shape[0] === 0));
  if (parts.length === 0) return tensors[0];
  const first = parts[0];
  const d = normalizeDim(dim, first.ndim, 'cat');
  for (const [i, t] of parts.entries()) {
    const ok = t.ndim === first.ndim && t.shape.every((s, k) => k === d || s === first.shape[k]);
    if (!ok) {
      throw new ShapeError(
        `cat: sizes of tensors must match except in dimension ${d}: expected ${formatShape(first.shape)} ` +
          `(any size in dim ${d}) but got ${formatShape(t.shape)} for tensor ${i} in the list`,
      );
    }
  }
  const dtype = parts.map((t) => t.dtype).reduce(promoteTypes);
  const shape = [...first.shape];
  shape[d] = parts.reduce((n, t) => n + t.shape[d], 0);
  return scoped(() => {
    const out = emptyTensor(device, dtype, shape);
    const strides = contiguousStrides(shape);
    let at = 0;
    const starts: number[] = [];
    for (const t of parts) {
      starts.push(at);
      if (t.numel() > 0) {
        const src = cast(t, dtype);
        device.backend.assign(kernelView(src), {
          ...kernelView(out),
          shape: t.shape,
          strides,
          offset: at * strides[d],
        });
      }
      at += t.shape[d];
    }
    return withGrad('CatBackward0', parts, out, () => {
      const need = parts.map((t) => t.requiresGrad);
      const sizes = parts.map((t) => t.shape[d]);
      return (g) => sizes.map((n, i) => (need[i] ? slice(g, d, starts[i], starts[i] + n) : null));
    });
  });
}

/** Joins tensors of one shape along a new dim. */
export function stack(tensors: readonly Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new ShapeError('stack: expected a non-empty list of tensors');
  const first = tensors[0];
  tensors.forEach((t, i) => {
    if (!shapesEqual(t.shape, first.shape)) {
      throw new ShapeError(
        `stack expects each tensor to be equal size, but got ${formatShape(first.shape)} at entry 0 ` +
          `and ${formatShape(t.shape)} at entry ${i}`,
      );
    }
  });
  const d = normalizeDim(dim, first.ndim + 1, 'stack');
  return scoped(() =>
    cat(
      tensors.map((t) => unsqueeze(t, d)),
      d,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Gather rows by index (embedding lookups and index_select).

function checkIndex(op: string, index: Tensor): void {
  if (index.dtype !== 'int32') {
    throw new TypeError(
      `${op}: indices must be an int32 tensor, got ${index.dtype} (use .int() or .long())`,
    );
  }
}

/** out[i, :] = table[index[i], :] for table [V, D] and int index [N]. */
export function indexSelectRows(table: Tensor, index: Tensor): Tensor {
  const device = inputsDevice('indexSelect', table, index);
  checkIndex('indexSelect', index);
  const [vocab, width] = table.shape;
  const out = emptyTensor(device, table.dtype, [index.shape[0], width]);
  if (out.numel() > 0)
    device.backend.indexSelect(kernelView(table), kernelView(index), kernelView(out));
  return withGrad('IndexSelectBackward0', [table, index], out, (save) => {
    const idx = save(index);
    return (g) => [indexAddRows(g, idx, vocab), null];
  });
}

/** out [V, D] = zeros with values[i, :] added at row index[i] (the gradient of a row gather). */
export function indexAddRows(values: Tensor, index: Tensor, rows: number): Tensor {
  const device = inputsDevice('indexAdd', values, index);
  checkIndex('indexAdd', index);
  const out = emptyTensor(device, values.dtype, [rows, values.shape[1]]);
  if (out.numel() > 0)
    device.backend.indexAdd(kernelView(values), kernelView(index), kernelView(out));
  return withGrad('IndexAddBackward0', [values, index], out, (save) => {
    const idx = save(index);
    return (g) => [indexSelectRows(g, idx), null];
  });
}

/** Picks entries along dim by an int index vector (torch.index_select). */
export function indexSelect(x: Tensor, dim: number, index: Tensor): Tensor {
  checkIndex('indexSelect', index);
  if (index.ndim > 1)
    throw new ShapeError(`indexSelect: index must be 1-D, got ${formatShape(index.shape)}`);
  const d = normalizeDim(dim, Math.max(x.ndim, 1), 'indexSelect');
  return scoped(() => {
    const idx = index.ndim === 0 ? reshape(index, [1]) : index;
    const moved = x.ndim === 0 ? reshape(x, [1]) : movedim(x, d, 0);
    const rest = moved.shape.slice(1);
    const table = reshape(moved, [moved.shape[0], numel(rest)]);
    const rows = indexSelectRows(table, idx);
    const picked = reshape(rows, [idx.shape[0], ...rest]);
    return x.ndim === 0
      ? reshape(picked, index.ndim === 0 ? [] : [idx.shape[0]])
      : movedim(picked, 0, d);
  });
}
