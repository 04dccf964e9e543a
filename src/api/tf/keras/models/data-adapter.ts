/**
 * What `fit`, `evaluate` and `predict` accept as data, made into batches for the training core:
 * a tf.data.Dataset (used as is), tensors or arrays `x, y` (sliced, shuffled and batched like
 * Keras does, 32 per batch by default), or any async iterable of `[x, y]` batches.
 */
import { ops, type Tensor } from '../../../../engine';
import type { BatchSource } from '../../../../engine/training';
import { describe } from '../../../args';
import { Dataset, INFINITE_CARDINALITY, isDataset } from '../../data/dataset';
import { toStructure, type Structure } from '../../data/structure';

export interface AdapterOptions {
  batchSize?: number;
  shuffle?: boolean;
  /** Batches per epoch (needed for endless datasets). */
  steps?: number | null;
  what: string;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

/** Epochs of `steps` batches drawn from one iterator that restarts when the data ends. */
function stepsOf(data: AsyncIterable<unknown>, steps: number): BatchSource {
  let iterator: AsyncIterator<unknown> | null = null;
  return {
    length: steps,
    async *[Symbol.asyncIterator]() {
      for (let i = 0; i < steps; i++) {
        iterator ??= data[Symbol.asyncIterator]();
        let r = await iterator.next();
        if (r.done) {
          iterator = data[Symbol.asyncIterator]();
          r = await iterator.next();
          if (r.done) return;
        }
        yield r.value;
      }
    },
  };
}

export function toBatches(x: unknown, y: unknown, options: AdapterOptions): BatchSource {
  const steps = options.steps ?? null;
  if (isDataset(x) || (isAsyncIterable(x) && !Array.isArray(x))) {
    if (y !== undefined && y !== null) {
      throw new TypeError(
        `${options.what}: the \`y\` argument is not supported when the data is a dataset (its elements hold the labels)`,
      );
    }
    if (steps !== null) return stepsOf(x, steps);
    if (isDataset(x)) {
      const n = x.cardinality();
      if (n === INFINITE_CARDINALITY) {
        throw new Error(
          `${options.what}: the dataset is endless (repeat()); give stepsPerEpoch so an epoch has an end`,
        );
      }
      return {
        length: n >= 0 ? n : undefined,
        [Symbol.asyncIterator]: () => x[Symbol.asyncIterator](),
      };
    }
    return x;
  }
  if (x === undefined || x === null)
    throw new TypeError(`${options.what}: no data given (x is ${describe(x)})`);
  const slices =
    y === undefined || y === null
      ? toStructure(x, 'x')
      : [toStructure(x, 'x'), toStructure(y, 'y')];
  let ds = Dataset.fromTensorSlices(slices) as Dataset<Structure>;
  const n = ds.cardinality();
  if (options.shuffle) ds = ds.shuffle(n);
  ds = ds.batch(options.batchSize ?? 32);
  return steps !== null
    ? stepsOf(ds, steps)
    : { length: ds.cardinality(), [Symbol.asyncIterator]: () => ds[Symbol.asyncIterator]() };
}

/** Keras's validationSplit: the last fraction of x and y, taken before any shuffling. */
export function splitTail(
  x: unknown,
  y: unknown,
  fraction: number,
): [[Tensor, Tensor], [Tensor, Tensor]] {
  if (!(fraction > 0 && fraction < 1))
    throw new RangeError(`validationSplit must be between 0 and 1, got ${fraction}`);
  const xs = toStructure(x, 'x');
  const ys = toStructure(y, 'y');
  if (Array.isArray(xs) || Array.isArray(ys) || !(xs as Tensor).shape || !(ys as Tensor).shape) {
    throw new TypeError('validationSplit needs x and y as single tensors or arrays');
  }
  // The caller's data outlives training, as a NumPy array would (never swept at step boundaries).
  const xt = (xs as Tensor).keep();
  const yt = (ys as Tensor).keep();
  const n = xt.shape[0];
  const at = Math.floor(n * (1 - fraction));
  if (at === 0 || at === n)
    throw new Error(`validationSplit ${fraction} of ${n} samples leaves one side empty`);
  const part = (t: Tensor, start: number, length: number): Tensor =>
    ops.contiguous(ops.narrow(t, 0, start, length));
  return [
    [part(xt, 0, at), part(yt, 0, at)],
    [part(xt, at, n - at), part(yt, at, n - at)],
  ];
}
