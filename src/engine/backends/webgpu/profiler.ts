/**
 * A dispatch profiler for the backend's own use (the autotuner, `WebGPUBackend.profile`): while
 * attached to the command queue, each dispatch runs in a pass of its own whose start and end are
 * timestamped; `collect` reads the stamps back once the batches are submitted.
 */
import type { DispatchProfiler } from './command-queue';

/** One timed dispatch: its label (kernel name and key) and its duration in nanoseconds. */
export interface DispatchTiming {
  readonly label: string;
  readonly ns: number;
}

interface Batch {
  readonly querySet: GPUQuerySet;
  readonly labels: string[];
  readback: GPUBuffer | null;
  resolved: GPUBuffer | null;
}

/** Query pairs per batch: the queue submits at most this many dispatches at once. */
const PAIRS_PER_BATCH = 128;

export class KernelProfiler implements DispatchProfiler {
  private current: Batch | null = null;
  private readonly done: Batch[] = [];
  /** Dispatches given timestamps so far: `collect` returns their timings in this order. */
  timed = 0;

  constructor(private readonly device: GPUDevice) {}

  /** Whether the device was opened with timestamp queries. */
  static supported(device: GPUDevice): boolean {
    return device.features.has('timestamp-query');
  }

  timestampWrites(label: string): GPUComputePassTimestampWrites | null {
    this.current ??= {
      querySet: this.device.createQuerySet({ type: 'timestamp', count: 2 * PAIRS_PER_BATCH }),
      labels: [],
      readback: null,
      resolved: null,
    };
    const batch = this.current;
    const index = batch.labels.length;
    if (index >= PAIRS_PER_BATCH) return null;
    batch.labels.push(label);
    this.timed++;
    return {
      querySet: batch.querySet,
      beginningOfPassWriteIndex: 2 * index,
      endOfPassWriteIndex: 2 * index + 1,
    };
  }

  resolve(encoder: GPUCommandEncoder): void {
    const batch = this.current;
    if (!batch || batch.labels.length === 0) return;
    this.current = null;
    const count = 2 * batch.labels.length;
    batch.resolved = this.device.createBuffer({
      size: 8 * count,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    batch.readback = this.device.createBuffer({
      size: 8 * count,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    encoder.resolveQuerySet(batch.querySet, 0, count, batch.resolved, 0);
    encoder.copyBufferToBuffer(batch.resolved, 0, batch.readback, 0, 8 * count);
    this.done.push(batch);
  }

  /** Every timed dispatch so far; call once its batches were submitted (after a flush). */
  async collect(): Promise<DispatchTiming[]> {
    const timings: DispatchTiming[] = [];
    for (const batch of this.done.splice(0)) {
      const readback = batch.readback;
      if (!readback) continue;
      await readback.mapAsync(GPUMapMode.READ);
      const stamps = new BigUint64Array(readback.getMappedRange().slice(0));
      readback.unmap();
      batch.labels.forEach((label, i) => {
        const [begin, end] = [stamps[2 * i], stamps[2 * i + 1]];
        timings.push({ label, ns: end > begin ? Number(end - begin) : 0 });
      });
      batch.querySet.destroy();
      batch.resolved?.destroy();
      readback.destroy();
    }
    this.current?.querySet.destroy();
    this.current = null;
    return timings;
  }
}

/** Total milliseconds and dispatch count per label, largest first. */
export function summarizeTimings(
  timings: readonly DispatchTiming[],
): { label: string; ms: number; count: number }[] {
  const totals = new Map<string, { ms: number; count: number }>();
  for (const { label, ns } of timings) {
    const entry = totals.get(label) ?? { ms: 0, count: 0 };
    entry.ms += ns / 1e6;
    entry.count++;
    totals.set(label, entry);
  }
  return [...totals].map(([label, v]) => ({ label, ...v })).sort((a, b) => b.ms - a.ms);
}
