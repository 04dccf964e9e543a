/** Shape arithmetic: sizes, strides, broadcasting, dimension checks and the errors they raise. */

export type Shape = readonly number[];

/** A shape or index error that names the operation and the shapes involved. */
export class ShapeError extends Error {
  override name = 'ShapeError';
}

export function formatShape(shape: Shape): string {
  return `[${shape.join(', ')}]`;
}

export function numel(shape: Shape): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function contiguousStrides(shape: Shape): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

/** Row-major with no gaps; size-1 dimensions may carry any stride. */
export function isContiguous(shape: Shape, strides: Shape): boolean {
  let expected = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] !== 1 && strides[i] !== expected) return false;
    expected *= shape[i];
  }
  return true;
}

export function shapesEqual(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

export function checkShape(shape: Shape, op: string): number[] {
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) {
      throw new ShapeError(
        `${op}: invalid shape ${formatShape(shape)}; sizes must be integers >= 0`,
      );
    }
  }
  return [...shape];
}

/** numpy broadcasting of any number of shapes. */
export function broadcastShapes(op: string, ...shapes: Shape[]): number[] {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const shape of shapes) {
    for (let i = 0; i < shape.length; i++) {
      const o = rank - shape.length + i;
      const d = shape[i];
      if (d === out[o] || d === 1) continue;
      if (out[o] === 1) {
        out[o] = d;
        continue;
      }
      throw new ShapeError(
        `${op}: shapes ${shapes.map(formatShape).join(' and ')} cannot be broadcast together ` +
          `(dimension ${o - rank} is ${out[o]} in one and ${d} in the other)`,
      );
    }
  }
  return out;
}

/** Strides that read `shape`/`strides` as if it had `target` shape (stride 0 where broadcast). */
export function broadcastStrides(shape: Shape, strides: Shape, target: Shape): number[] {
  const out = new Array<number>(target.length).fill(0);
  const lead = target.length - shape.length;
  for (let i = 0; i < shape.length; i++) {
    out[lead + i] = shape[i] === 1 && target[lead + i] !== 1 ? 0 : strides[i];
  }
  return out;
}

/** Python-style negative dims; throws naming the op when out of range. */
export function normalizeDim(dim: number, rank: number, op: string): number {
  const r = Math.max(rank, 1);
  if (!Number.isInteger(dim) || dim < -r || dim >= r) {
    throw new ShapeError(
      `${op}: dimension out of range (expected to be in range of [${-r}, ${r - 1}], but got ${dim})`,
    );
  }
  return dim < 0 ? dim + r : dim;
}

/** Sorted, unique, non-negative dims; undefined/null means all dims. */
export function normalizeDims(
  dims: number | readonly number[] | undefined | null,
  rank: number,
  op: string,
): number[] {
  if (dims === undefined || dims === null) return Array.from({ length: rank }, (_, i) => i);
  const list = typeof dims === 'number' ? [dims] : dims;
  const out = [...new Set(list.map((d) => normalizeDim(d, rank, op)))].sort((a, b) => a - b);
  if (out.length !== list.length)
    throw new ShapeError(`${op}: a dimension appears twice in [${list.join(', ')}]`);
  return rank === 0 ? [] : out;
}

/** Resolves one -1 in a requested shape against the number of elements. */
export function inferShape(requested: Shape, size: number, op: string, from: Shape): number[] {
  let infer = -1;
  let known = 1;
  requested.forEach((d, i) => {
    if (d === -1) {
      if (infer >= 0) throw new ShapeError(`${op}: only one dimension can be inferred (-1)`);
      infer = i;
    } else if (!Number.isInteger(d) || d < 0) {
      throw new ShapeError(`${op}: invalid shape dimension ${d} in ${formatShape(requested)}`);
    } else {
      known *= d;
    }
  });
  const out = [...requested];
  if (infer >= 0) {
    if (known === 0 || size % known !== 0) {
      throw new ShapeError(
        `${op}: shape ${formatShape(requested)} is invalid for input of size ${size} (shape ${formatShape(from)})`,
      );
    }
    out[infer] = size / known;
  } else if (known !== size) {
    throw new ShapeError(
      `${op}: shape ${formatShape(requested)} is invalid for input of size ${size} (shape ${formatShape(from)})`,
    );
  }
  return out;
}

/**
 * Strides for viewing (oldShape, oldStrides) as newShape without copying, or null when the memory
 * layout does not allow it (PyTorch's rule: each group of merged/split dims must be contiguous).
 */
export function viewStrides(oldShape: Shape, oldStrides: Shape, newShape: Shape): number[] | null {
  if (numel(oldShape) === 0) return contiguousStrides(newShape);
  // A 0-d tensor holds one element: any all-ones shape views it.
  if (oldShape.length === 0) return newShape.map(() => 1);
  const newStrides = new Array<number>(newShape.length).fill(0);
  let viewD = newShape.length - 1;
  let chunkBase = oldStrides[oldStrides.length - 1] ?? 1;
  let tensorNumel = 1;
  let viewNumel = 1;
  for (let d = oldShape.length - 1; d >= 0; d--) {
    tensorNumel *= oldShape[d];
    if (d === 0 || (oldShape[d - 1] !== 1 && oldStrides[d - 1] !== tensorNumel * chunkBase)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] === 1)) {
        newStrides[viewD] = viewNumel * chunkBase;
        viewNumel *= newShape[viewD];
        viewD--;
      }
      if (viewNumel !== tensorNumel) return null;
      if (d > 0) {
        chunkBase = oldStrides[d - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD !== -1) return null;
  return newStrides;
}
