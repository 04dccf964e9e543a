/**
 * Datasets: the `Dataset` base (`length` and `get(i)`, Python's `len` and `[i]`), `TensorDataset`
 * over tensors sharing their first dimension, and `Subset`. Tensor-backed datasets also tell the
 * DataLoader where their rows live, so a batch is one gather on the data's device.
 */
import { formatShape, ShapeError } from '../shape';
import { select } from '../ops/shape-ops';
import { Tensor } from '../tensor';

/** The rows of a dataset: tensors with one row per sample, and which row each position reads. */
export interface TensorSource {
  tensors: Tensor[];
  /** Row of each dataset position; null when position i is row i. */
  rows: Int32Array | null;
}

export abstract class Dataset<Item = Tensor[]> {
  /** Number of samples (Python's `len(ds)`). */
  abstract get length(): number;
  /** Sample i (Python's `ds[i]`). */
  abstract get(index: number): Item;

  /** Rows for batched gathering, when the dataset is backed by tensors. */
  tensorSource(): TensorSource | null {
    return null;
  }

  *[Symbol.iterator](): Iterator<Item> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }
}

export function checkIndex(index: number, length: number, what: string): number {
  if (!Number.isInteger(index) || index < -length || index >= length) {
    throw new RangeError(`${what}: index ${index} is out of range for ${length} samples`);
  }
  return index < 0 ? index + length : index;
}

/** Samples are the i-th rows of each tensor: `new TensorDataset(features, labels)`. */
export class TensorDataset extends Dataset<Tensor[]> {
  readonly tensors: Tensor[];

  constructor(...tensors: Tensor[]) {
    super();
    if (tensors.length === 0) throw new TypeError('TensorDataset needs at least one tensor');
    tensors.forEach((t, i) => {
      if (!(t instanceof Tensor))
        throw new TypeError(`TensorDataset: argument ${i} is not a Tensor`);
      if (t.ndim === 0)
        throw new ShapeError(
          `TensorDataset: tensor ${i} is 0-d; samples are rows of the first dimension`,
        );
    });
    const n = tensors[0].shape[0];
    const bad = tensors.findIndex((t) => t.shape[0] !== n);
    if (bad >= 0) {
      throw new ShapeError(
        `Size mismatch between tensors: tensor 0 has ${n} rows ${formatShape(tensors[0].shape)} but tensor ${bad} ` +
          `has ${tensors[bad].shape[0]} ${formatShape(tensors[bad].shape)}`,
      );
    }
    // Dataset storage lives as long as the dataset: step sweeps must not release it.
    for (const t of tensors) t.keep();
    this.tensors = tensors;
  }

  get length(): number {
    return this.tensors[0].shape[0];
  }

  get(index: number): Tensor[] {
    const i = checkIndex(index, this.length, 'TensorDataset');
    return this.tensors.map((t) => select(t, 0, i));
  }

  override tensorSource(): TensorSource {
    return { tensors: this.tensors, rows: null };
  }
}

/** Indices given as a list, a typed array or a cpu int tensor. */
function indexList(indices: unknown): Int32Array {
  if (indices instanceof Tensor) {
    const reader = indices.deviceObject.capability('syncRead');
    if (!reader || !indices.isContiguous()) {
      throw new TypeError(
        'Subset: indices on a GPU must be read first: pass await indices.tolist()',
      );
    }
    const values = reader.readSync(
      indices.res.storage.buffer,
      indices.dtype,
      indices.offset,
      indices.numel(),
    );
    if (values === null)
      throw new TypeError('Subset: pass indices as a list (await indices.tolist())');
    return Int32Array.from(values);
  }
  if (Array.isArray(indices) || ArrayBuffer.isView(indices))
    return Int32Array.from(indices as ArrayLike<number>);
  if (indices !== null && typeof indices === 'object' && Symbol.iterator in indices) {
    return Int32Array.from(indices as Iterable<number>);
  }
  throw new TypeError('Subset: indices must be a list of integers');
}

/** The samples of `dataset` at `indices`, in that order. */
export class Subset<Item = Tensor[]> extends Dataset<Item> {
  readonly indices: Int32Array;

  constructor(
    readonly dataset: Dataset<Item>,
    indices: Iterable<number> | ArrayLike<number> | Tensor,
  ) {
    super();
    if (!(dataset instanceof Dataset))
      throw new TypeError('Subset: dataset must be a Dataset (e.g. a TensorDataset)');
    const list = indexList(indices);
    const n = dataset.length;
    for (let k = 0; k < list.length; k++) {
      if (!Number.isInteger(list[k]) || list[k] < 0 || list[k] >= n) {
        throw new RangeError(
          `Subset: index ${list[k]} (at position ${k}) is out of range for a dataset of ${n} samples`,
        );
      }
    }
    this.indices = list;
  }

  get length(): number {
    return this.indices.length;
  }

  get(index: number): Item {
    return this.dataset.get(this.indices[checkIndex(index, this.length, 'Subset')]);
  }

  override tensorSource(): TensorSource | null {
    const base = this.dataset.tensorSource();
    if (!base) return null;
    const rows = base.rows ? this.indices.map((i) => (base.rows as Int32Array)[i]) : this.indices;
    return { tensors: base.tensors, rows };
  }
}
