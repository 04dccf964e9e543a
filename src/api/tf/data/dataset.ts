/**
 * `tf.data.Dataset`: an input pipeline over tensor slices. Until something needs values, elements
 * travel as row numbers of the source, so `shuffle`, `take`, `skip`, `repeat` and `cache` move
 * integers and `batch` gathers each batch with one index-select per component. Batches land on
 * the default tf device (gpu:0 when there is one, as TensorFlow places them). Iterating (`for
 * await (const [x, y] of ds)`) calls the engine's stepBoundary before producing each element.
 */
import { cpu, defaultDevice, defaultGenerator, ops, stepBoundary, Tensor } from '../../../engine';
import { mulberry32 } from '../../../engine/data/datasets/seeded-shuffle';
import { asInt, bindArgs, boolArg, describe } from '../../args';
import {
  isStructure,
  leaves,
  mapStructure,
  toStructure,
  zipStructures,
  type Structure,
} from './structure';

/** Let the runtime choose (prefetch depth and the like); accepted and ignored here. */
export const AUTOTUNE = -1;
export const INFINITE_CARDINALITY = -1;
export const UNKNOWN_CARDINALITY = -2;

/** A pipeline item: a row of the source not yet gathered, or a materialized element. */
type Item = number | Structure;

interface Stage {
  items(): Iterator<Item>;
  cardinality(): number;
  /** Asynchronous work before a pass (a filter's host copy of the source), awaited first. */
  prepare?(): Promise<void>;
}

/** The element type seen when iterating: tensors in the shape of the slices given. */
export type SliceOf<T> = T extends Tensor
  ? Tensor
  : T extends ArrayBufferView
    ? Tensor
    : T extends readonly (infer U)[]
      ? [U] extends [number | readonly unknown[]]
        ? Tensor
        : Tensor[]
      : T extends Record<string, unknown>
        ? { [K in keyof T]: SliceOf<T[K]> }
        : Tensor;

function checkSameLength(source: Structure): number {
  const all = leaves(source);
  if (all.length === 0) throw new TypeError('Dataset.fromTensorSlices: no tensors given');
  const lengths = all.map((t) => (t.ndim === 0 ? -1 : t.shape[0]));
  if (lengths.some((n) => n < 0))
    throw new Error(
      'Dataset.fromTensorSlices: every component needs at least one dimension to slice',
    );
  if (lengths.some((n) => n !== lengths[0])) {
    throw new Error(
      `Dimensions ${lengths.join(' and ')} in the first axis of the components are not compatible: ` +
        'fromTensorSlices needs every component to have the same number of rows',
    );
  }
  return lengths[0];
}

function onDefaultDevice(t: Tensor): Tensor {
  const device = defaultDevice('tf');
  return t.deviceObject === device ? t : ops.toDevice(t, device);
}

/** Rows of the source gathered into one batch (one index-select per component). */
function gatherRows(source: Structure, rows: readonly number[]): Structure {
  const index = new Map<string, Tensor>();
  return mapStructure(source, (t) => {
    let idx = index.get(t.device);
    if (!idx) {
      idx = ops.fromHost(Int32Array.from(rows), [rows.length], {
        device: t.deviceObject,
        dtype: 'int32',
      });
      index.set(t.device, idx);
    }
    return onDefaultDevice(ops.indexSelect(t, 0, idx));
  });
}

function elementAt(source: Structure, row: number): Structure {
  return mapStructure(source, (t) => onDefaultDevice(ops.select(t, 0, row)));
}

function materialize(source: Structure, item: Item): Structure {
  return typeof item === 'number' ? elementAt(source, item) : item;
}

/** A 32-bit seed drawn from the engine's generator, so tf.random.setSeed makes shuffles repeat. */
function drawSeed(): number {
  const { seed, counter } = defaultGenerator.take('uniform', 1, 0, 1);
  return (mulberry32(seed ^ Math.imul(counter + 1, 0x9e3779b1))() * 2 ** 32) >>> 0;
}

function countArg(value: unknown, what: string): number {
  const n = asInt(value, what);
  if (n < -1) throw new RangeError(`${what} must be >= -1 (-1 means all), got ${n}`);
  return n;
}

export class Dataset<E = Structure> implements AsyncIterable<E> {
  /** @internal */
  protected constructor(
    private readonly source: Structure,
    private readonly stage: Stage,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Sources.

  /**
   * Slices along the first axis: `fromTensorSlices([x, y])` gives elements `[x[i], y[i]]`
   * (a Python tuple is a JS array); tensors, typed arrays or nested arrays; records too.
   */
  static fromTensorSlices<T>(tensors: T): Dataset<SliceOf<T>> {
    const source = toStructure(tensors, 'fromTensorSlices');
    const n = checkSameLength(source);
    // Dataset storage lives as long as the dataset: never swept at step boundaries.
    for (const t of leaves(source)) t.keep();
    return new Dataset<SliceOf<T>>(source, {
      items: function* () {
        for (let i = 0; i < n; i++) yield i;
      },
      cardinality: () => n,
    });
  }

  /** `Dataset.range(stop)` / `range(start, stop, step)`: int32 scalars, as Python's range. */
  static range(...args: unknown[]): Dataset<Tensor> {
    const a = bindArgs(
      { name: 'Dataset.range', params: [], rest: 'args', keywordOnly: ['outputType', 'name'] },
      args,
    );
    const numbers = (a.args as unknown[]).map((v, i) => asInt(v, `Dataset.range: argument ${i}`));
    if (numbers.length < 1 || numbers.length > 3)
      throw new TypeError(`Dataset.range takes 1 to 3 arguments, got ${numbers.length}`);
    const [start, stop, step] =
      numbers.length === 1 ? [0, numbers[0], 1] : [numbers[0], numbers[1], numbers[2] ?? 1];
    if (step === 0) throw new RangeError('Dataset.range: step must not be zero');
    const count = Math.max(0, Math.ceil((stop - start) / step));
    if (count > 0)
      return Dataset.fromTensorSlices(
        ops.arange(start, stop, step, { device: defaultDevice('tf') }),
      );
    // The engine has no empty tensors: an empty range is a source nothing is ever read from.
    const placeholder = ops.zeros([1], { device: cpu(), dtype: 'int32' });
    placeholder.keep();
    return new Dataset<Tensor>(placeholder, {
      items: function* () {},
      cardinality: () => 0,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Transformations (each returns a new dataset; the original is unchanged).

  private derive<F = E>(stage: Stage): Dataset<F> {
    const before = this.stage.prepare?.bind(this.stage);
    const own = stage.prepare?.bind(stage);
    if (!before && !own) return new Dataset<F>(this.source, stage);
    const prepare = async (): Promise<void> => {
      await before?.();
      await own?.();
    };
    return new Dataset<F>(this.source, { ...stage, prepare });
  }

  /**
   * TensorFlow's buffered shuffle: a buffer of `bufferSize` elements, each output drawn from it at
   * random and replaced by the next input. Reshuffled on each pass unless told otherwise.
   */
  shuffle(...args: unknown[]): Dataset<E> {
    const a = bindArgs(
      { name: 'Dataset.shuffle', params: ['bufferSize', 'seed', 'reshuffleEachIteration', 'name'] },
      args,
    );
    const bufferSize = asInt(a.bufferSize, 'shuffle: bufferSize');
    if (bufferSize < 1 && bufferSize !== -1)
      throw new RangeError(`shuffle: bufferSize must be positive, got ${bufferSize}`);
    const seed =
      a.seed === undefined || a.seed === null ? drawSeed() : asInt(a.seed, 'shuffle: seed') >>> 0;
    const reshuffle = boolArg(a.reshuffleEachIteration, 'shuffle: reshuffleEachIteration', true);
    const input = this.stage;
    let passes = 0;
    return this.derive({
      items: function* () {
        const pass = reshuffle ? passes++ : 0;
        const random = mulberry32((seed + Math.imul(pass, 0x6d2b79f5)) >>> 0);
        const size = bufferSize === -1 ? Infinity : bufferSize;
        const it = input.items();
        const buffer: Item[] = [];
        let next = it.next();
        while (buffer.length < size && !next.done) {
          buffer.push(next.value);
          next = it.next();
        }
        while (buffer.length > 0) {
          const j = Math.floor(random() * buffer.length);
          yield buffer[j];
          if (!next.done) {
            buffer[j] = next.value;
            next = it.next();
          } else {
            buffer[j] = buffer[buffer.length - 1];
            buffer.pop();
          }
        }
      },
      cardinality: () => input.cardinality(),
    });
  }

  /** Consecutive elements stacked into batches of `batchSize` (the last may be smaller). */
  batch(...args: unknown[]): Dataset<E> {
    const a = bindArgs(
      {
        name: 'Dataset.batch',
        params: ['batchSize', 'dropRemainder', 'numParallelCalls', 'deterministic', 'name'],
      },
      args,
    );
    const size = asInt(a.batchSize, 'batch: batchSize');
    if (size < 1) throw new RangeError(`batch: batchSize must be positive, got ${size}`);
    const dropRemainder = boolArg(a.dropRemainder, 'batch: dropRemainder');
    const input = this.stage;
    const source = this.source;
    const emit = (group: Item[]): Structure => {
      if (group.every((g) => typeof g === 'number')) return gatherRows(source, group as number[]);
      const elements = group.map((g) => materialize(source, g));
      return zipStructures(elements, (ts) => ops.stack(ts, 0));
    };
    return this.derive({
      items: function* () {
        let group: Item[] = [];
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          group.push(r.value);
          if (group.length === size) {
            yield emit(group);
            group = [];
          }
        }
        if (group.length > 0 && !dropRemainder) yield emit(group);
      },
      cardinality: () => {
        const n = input.cardinality();
        if (n < 0) return n;
        return dropRemainder ? Math.floor(n / size) : Math.ceil(n / size);
      },
    });
  }

  /** Applies fn to each element (a tuple's parts are passed as separate arguments, as in TF). */
  map<F = E>(fn: (...parts: never[]) => F): Dataset<F> {
    if (typeof fn !== 'function') throw new TypeError('Dataset.map expects a function');
    const input = this.stage;
    const source = this.source;
    return this.derive<F>({
      items: function* () {
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          const element = materialize(source, r.value);
          const out: unknown = Array.isArray(element)
            ? (fn as (...p: unknown[]) => unknown)(...element)
            : (fn as (p: unknown) => unknown)(element);
          if (!isStructure(out)) {
            throw new TypeError(
              `Dataset.map: the function must return a tensor, an array or a record of tensors, got ${describe(out)}`,
            );
          }
          yield out;
        }
      },
      cardinality: () => input.cardinality(),
    });
  }

  /**
   * The elements for which `predicate` (called as map calls its function) gives true: a boolean
   * or a one-element tensor. The pipeline runs synchronously, so a tensor result must be readable
   * at once: elements not yet gathered are handed to the predicate on their source's device (host
   * data such as `loadData()` arrays stays on the cpu), and a result on a GPU is an error saying
   * so. Kept elements stay row numbers, so a later `batch` still gathers them in one step.
   */
  filter(predicate: (...parts: never[]) => unknown): Dataset<E> {
    if (typeof predicate !== 'function') throw new TypeError('Dataset.filter expects a function');
    const input = this.stage;
    const source = this.source;
    // The source's rows as the predicate sees them: a cpu copy, made once before the first pass.
    let host: Structure | null = null;
    const keep = (item: Item): boolean => {
      const element =
        typeof item === 'number'
          ? mapStructure(host ?? source, (t) => ops.select(t, 0, item))
          : item;
      const out: unknown = Array.isArray(element)
        ? (predicate as (...p: unknown[]) => unknown)(...element)
        : (predicate as (p: unknown) => unknown)(element);
      return truth(out);
    };
    return this.derive({
      items: function* () {
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          if (keep(r.value)) yield r.value;
        }
      },
      cardinality: () => {
        const c = input.cardinality();
        return c === INFINITE_CARDINALITY ? c : UNKNOWN_CARDINALITY;
      },
      prepare: async () => {
        host ??= await hostCopy(source);
      },
    });
  }

  /** The first `count` elements (-1: all). */
  take(...args: unknown[]): Dataset<E> {
    const a = bindArgs({ name: 'Dataset.take', params: ['count', 'name'] }, args);
    const n = countArg(a.count, 'take: count');
    const input = this.stage;
    return this.derive({
      items: function* () {
        if (n === 0) return;
        let taken = 0;
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          yield r.value;
          if (++taken === n) return;
        }
      },
      cardinality: () => {
        const c = input.cardinality();
        if (n === -1) return c;
        if (c === INFINITE_CARDINALITY) return n;
        return c < 0 ? c : Math.min(c, n);
      },
    });
  }

  /** All but the first `count` elements. */
  skip(...args: unknown[]): Dataset<E> {
    const a = bindArgs({ name: 'Dataset.skip', params: ['count', 'name'] }, args);
    const n = countArg(a.count, 'skip: count');
    const input = this.stage;
    return this.derive({
      items: function* () {
        let seen = 0;
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          if (n === -1 || seen++ < n) continue;
          yield r.value;
        }
      },
      cardinality: () => {
        const c = input.cardinality();
        if (c < 0) return c;
        return n === -1 ? 0 : Math.max(0, c - n);
      },
    });
  }

  /** The dataset `count` times over (forever when omitted or -1); each pass reshuffles. */
  repeat(...args: unknown[]): Dataset<E> {
    const a = bindArgs({ name: 'Dataset.repeat', params: ['count', 'name'] }, args);
    const n = a.count === undefined || a.count === null ? -1 : countArg(a.count, 'repeat: count');
    const input = this.stage;
    return this.derive({
      items: function* () {
        for (let pass = 0; n === -1 || pass < n; pass++) {
          let any = false;
          for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
            any = true;
            yield r.value;
          }
          if (!any) return;
        }
      },
      cardinality: () => {
        const c = input.cardinality();
        if (n === -1) return c === 0 ? 0 : INFINITE_CARDINALITY;
        return c < 0 ? c : c * n;
      },
    });
  }

  /**
   * Each element split along its first axis into that many elements, the inverse of `batch`
   * (across batches of different sizes too). Every component needs the same first dimension.
   */
  unbatch(...args: unknown[]): Dataset<E> {
    bindArgs({ name: 'Dataset.unbatch', params: ['name'] }, args);
    const input = this.stage;
    const source = this.source;
    return this.derive({
      items: function* () {
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          const element = materialize(source, r.value);
          const parts = leaves(element);
          if (parts.some((t) => t.ndim === 0))
            throw new Error('Dataset.unbatch: cannot unbatch an input with scalar components.');
          const n = parts[0].shape[0];
          if (parts.some((t) => t.shape[0] !== n))
            throw new Error(
              'Dataset.unbatch: cannot unbatch an input whose components have different batch ' +
                `sizes (${parts.map((t) => t.shape[0]).join(' and ')})`,
            );
          for (let i = 0; i < n; i++) yield mapStructure(element, (t) => ops.select(t, 0, i));
        }
      },
      cardinality: () => {
        const c = input.cardinality();
        return c === INFINITE_CARDINALITY ? c : UNKNOWN_CARDINALITY;
      },
    });
  }

  /** Overlaps producing and consuming elsewhere; here elements are produced on demand already. */
  prefetch(...args: unknown[]): Dataset<E> {
    bindArgs({ name: 'Dataset.prefetch', params: ['bufferSize', 'name'] }, args);
    return this;
  }

  /**
   * Keeps the elements of the first complete pass and replays them afterwards, as TF does: a
   * cache after a shuffle freezes that first order. Cached tensors stay on their device. A
   * `filename` (TF's cache on disk) is accepted and the cache is kept in memory all the same:
   * the elements are the same, and a notebook's files would not outlive the page anyway.
   */
  cache(...args: unknown[]): Dataset<E> {
    const a = bindArgs({ name: 'Dataset.cache', params: ['filename', 'name'] }, args);
    if (a.filename !== undefined && a.filename !== null && typeof a.filename !== 'string')
      throw new TypeError(`Dataset.cache: filename must be a string, got ${describe(a.filename)}`);
    const input = this.stage;
    let cached: Item[] | null = null;
    return this.derive({
      items: function* () {
        if (cached) {
          yield* cached;
          return;
        }
        const filling: Item[] = [];
        for (let it = input.items(), r = it.next(); !r.done; r = it.next()) {
          if (typeof r.value !== 'number') for (const t of leaves(r.value)) t.keep();
          filling.push(r.value);
          yield r.value;
        }
        cached = filling;
      },
      cardinality: () => input.cardinality(),
    });
  }

  // -------------------------------------------------------------------------------------------
  // Reading.

  /** The number of elements; -1 (INFINITE_CARDINALITY) for endless, -2 when unknown. */
  cardinality(): number {
    return this.stage.cardinality();
  }

  /** Python's `len(ds)`: the number of elements (an error for endless datasets). */
  get length(): number {
    const n = this.cardinality();
    if (n === INFINITE_CARDINALITY) throw new TypeError('The dataset is infinite.');
    if (n < 0) throw new TypeError('The dataset length is unknown.');
    return n;
  }

  /** One pass, element by element; the engine's step boundary comes before each element. */
  async *[Symbol.asyncIterator](): AsyncGenerator<E, void, undefined> {
    await this.stage.prepare?.();
    const it = this.stage.items();
    for (;;) {
      stepBoundary();
      const r = it.next();
      if (r.done) return;
      yield materialize(this.source, r.value) as E;
    }
  }

  /** Elements as nested arrays of numbers (Python's `as_numpy_iterator`), read asynchronously. */
  async *asNumpyIterator(): AsyncGenerator<unknown, void, undefined> {
    for await (const element of this) yield await toLists(element as Structure);
  }

  /**
   * Every element of one pass, in an array. No step boundary is taken while collecting, so the
   * elements outlive the pass (they are ordinary tensors afterwards).
   */
  async toArray(): Promise<E[]> {
    const out: E[] = [];
    await this.stage.prepare?.();
    for (let it = this.stage.items(), r = it.next(); !r.done; r = it.next()) {
      out.push(materialize(this.source, r.value) as E);
    }
    return out;
  }

  toString(): string {
    const n = this.cardinality();
    return `<Dataset cardinality=${n === INFINITE_CARDINALITY ? 'inf' : n < 0 ? 'unknown' : n}>`;
  }
}

/** `source` on the cpu (kept as long as the dataset): where a filter's predicate reads rows. */
async function hostCopy(source: Structure): Promise<Structure> {
  const copies = new Map<Tensor, Tensor>();
  for (const t of leaves(source)) {
    if (copies.has(t)) continue;
    const copy =
      t.deviceObject === cpu()
        ? t
        : ops.fromHost(await t.data(), t.shape, { device: cpu(), dtype: t.dtype });
    copy.keep();
    copies.set(t, copy);
  }
  return mapStructure(source, (t) => copies.get(t) ?? t);
}

/** A filter predicate's answer: a boolean, or a one-element tensor read on the host now. */
function truth(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (!(value instanceof Tensor))
    throw new TypeError(
      `Dataset.filter: the predicate must return a boolean tensor (or a boolean), got ${describe(value)}`,
    );
  if (value.numel() !== 1)
    throw new TypeError(
      `Dataset.filter: the predicate must return a scalar, got a tensor of shape [${value.shape.join(', ')}]`,
    );
  const reader = value.deviceObject.capability('syncRead');
  const read =
    reader && value.isContiguous()
      ? reader.readSync(value.res.storage.buffer, value.dtype, value.offset, 1)
      : null;
  if (read === null)
    throw new TypeError(
      `Dataset.filter: the predicate's result is on ${value.device}, which cannot be read while ` +
        'the pipeline runs (it is synchronous). Filter data that lives on the cpu: make the ' +
        'dataset from host arrays (loadData(), lists) or filter before map moves elements to a GPU.',
    );
  return read[0] !== 0;
}

async function toLists(s: Structure): Promise<unknown> {
  if (s instanceof Tensor) return s.tolist();
  if (Array.isArray(s)) return Promise.all(s.map(toLists));
  const entries = await Promise.all(
    Object.entries(s).map(async ([k, v]) => [k, await toLists(v)] as const),
  );
  return Object.fromEntries(entries);
}

export const data = {
  Dataset,
  AUTOTUNE,
  INFINITE_CARDINALITY,
  UNKNOWN_CARDINALITY,
  experimental: { AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY },
};

/** Whether a value is a tf.data dataset (fit/evaluate/predict accept both datasets and tensors). */
export function isDataset(value: unknown): value is Dataset<unknown> {
  return value instanceof Dataset;
}
