/**
 * DataLoader: batches of a dataset as an async iterable of `[features, labels]`. Tensor-backed
 * datasets are batched with one gather per tensor on the data's own device (a view when the
 * batch is a contiguous run of rows); shuffling draws from the engine's seeded generator. Each
 * batch starts a new training step for the memory sweep, and the loader never runs more than two
 * batches ahead of the devices, so queued GPU work stays bounded.
 */
import { bindArgs, describe } from '../args';
import type { Device } from '../devices/device';
import { cpu } from '../devices/registry';
import { synchronize } from '../devices/stats';
import { stepBoundary } from '../memory';
import { fromData, fromHost } from '../ops/creation';
import { indexSelect, narrow, stack } from '../ops/shape-ops';
import { defaultGenerator, Generator } from '../random';
import { Tensor } from '../tensor';
import { Dataset, type TensorSource } from './dataset';
import { randperm } from './randperm';

export interface DataLoaderOptions {
  batchSize?: number;
  shuffle?: boolean;
  dropLast?: boolean;
  /** Accepted for PyTorch compatibility: batches are made on the data's device, without workers. */
  numWorkers?: number;
  pinMemory?: boolean;
  generator?: Generator;
  /** Turns a list of samples into a batch (for datasets not backed by tensors). */
  collateFn?: (samples: unknown[]) => unknown;
}

const PARAMS = [
  'dataset',
  'batchSize',
  'shuffle',
  'sampler',
  'batchSampler',
  'numWorkers',
  'collateFn',
  'pinMemory',
  'dropLast',
  'timeout',
  'workerInitFn',
  'multiprocessingContext',
  'generator',
];
const KEYWORD_ONLY = ['prefetchFactor', 'persistentWorkers', 'pinMemoryDevice'];

/** How far the loader may run ahead of the devices, in batches. */
const AHEAD = 2;

export class DataLoader<Batch = Tensor[]> implements AsyncIterable<Batch> {
  readonly dataset: Dataset<unknown>;
  readonly batchSize: number;
  readonly shuffle: boolean;
  readonly dropLast: boolean;
  private readonly generator: Generator;
  private readonly collateFn: ((samples: unknown[]) => unknown) | null;

  constructor(
    dataset: Dataset<unknown>,
    batchSize?: number | DataLoaderOptions,
    shuffle?: boolean | DataLoaderOptions,
    ...rest: unknown[]
  );
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'DataLoader', params: PARAMS, keywordOnly: KEYWORD_ONLY }, args);
    if (!(a.dataset instanceof Dataset)) {
      throw new TypeError(
        `DataLoader: dataset must be a Dataset (TensorDataset, Subset, MNIST, …), got ${describe(a.dataset)}`,
      );
    }
    for (const key of ['sampler', 'batchSampler']) {
      if (a[key] !== undefined && a[key] !== null)
        throw new Error(`DataLoader: ${key} is not supported yet; use shuffle`);
    }
    const batchSize = a.batchSize ?? 1;
    if (typeof batchSize !== 'number' || !Number.isInteger(batchSize) || batchSize <= 0) {
      throw new RangeError(
        `batch_size should be a positive integer value, but got batch_size=${String(batchSize)}`,
      );
    }
    if (a.generator !== undefined && a.generator !== null && !(a.generator instanceof Generator)) {
      throw new TypeError('DataLoader: generator must be a torch.Generator');
    }
    if (a.collateFn !== undefined && a.collateFn !== null && typeof a.collateFn !== 'function') {
      throw new TypeError('DataLoader: collateFn must be a function');
    }
    this.dataset = a.dataset;
    this.batchSize = batchSize;
    this.shuffle = a.shuffle === true;
    this.dropLast = a.dropLast === true;
    this.generator = (a.generator as Generator | undefined) ?? defaultGenerator;
    this.collateFn = (a.collateFn as ((samples: unknown[]) => unknown) | undefined) ?? null;
  }

  /** Number of batches (Python's `len(loader)`). */
  get length(): number {
    const n = this.dataset.length;
    return this.dropLast ? Math.floor(n / this.batchSize) : Math.ceil(n / this.batchSize);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Batch> {
    const n = this.dataset.length;
    const order = this.shuffle ? randperm(n, this.generator) : null;
    const source = this.collateFn ? null : this.dataset.tensorSource();
    const pending: Promise<void>[] = [];
    for (let b = 0; b < this.length; b++) {
      stepBoundary();
      if (pending.length >= AHEAD) await pending.shift();
      const start = b * this.batchSize;
      const end = Math.min(start + this.batchSize, n);
      const positions = order ? order.subarray(start, end) : null;
      const batch = source
        ? gather(source, positions, start, end)
        : this.collate(positions, start, end);
      pending.push(synchronize(batchDevice(batch)));
      yield batch as Batch;
    }
  }

  private collate(positions: Int32Array | null, start: number, end: number): unknown {
    const samples: unknown[] = [];
    for (let k = start; k < end; k++)
      samples.push(this.dataset.get(positions ? positions[k - start] : k));
    return this.collateFn ? this.collateFn(samples) : defaultCollate(samples);
  }
}

/** One gather per tensor; a narrow view when the batch is a run of consecutive rows. */
function gather(
  source: TensorSource,
  positions: Int32Array | null,
  start: number,
  end: number,
): Tensor[] {
  const rows = source.rows
    ? positions
      ? positions.map((p) => (source.rows as Int32Array)[p])
      : source.rows.subarray(start, end)
    : positions;
  if (rows === null) return source.tensors.map((t) => narrow(t, 0, start, end - start));
  const byDevice = new Map<Device, Tensor>();
  const out = source.tensors.map((t) => {
    let index = byDevice.get(t.deviceObject);
    if (!index) {
      index = fromHost(Int32Array.from(rows), [rows.length], { device: t.deviceObject });
      byDevice.set(t.deviceObject, index);
    }
    return indexSelect(t, 0, index);
  });
  for (const index of byDevice.values()) index.dispose();
  return out;
}

/** PyTorch's default_collate for the common cases: tensors stack, numbers become a tensor. */
function defaultCollate(samples: unknown[]): unknown {
  const first = samples[0];
  if (first instanceof Tensor) return stack(samples as Tensor[], 0);
  if (typeof first === 'number') return fromData(samples as number[], { device: cpu() });
  if (Array.isArray(first))
    return first.map((_, i) => defaultCollate(samples.map((s) => (s as unknown[])[i])));
  throw new TypeError(
    `DataLoader: cannot batch samples of this kind (${describe(first)}); pass a collateFn`,
  );
}

function batchDevice(batch: unknown): Device | undefined {
  const list = Array.isArray(batch) ? batch : [batch];
  const first = list.find((v): v is Tensor => v instanceof Tensor);
  return first?.deviceObject;
}
