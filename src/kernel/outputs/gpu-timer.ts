/**
 * Per-dispatch GPU times from WebGPU timestamp queries: installed on a WebGPU backend's command
 * queue while `profile()` runs, it gives each dispatch a timed pass, resolves each batch's
 * queries into a buffer as the batch is submitted, and reads them all back once the device is idle.
 */
import type { Device } from '../../engine';
import type { WebGPUBackend } from '../../engine/backends/webgpu';
import type { DispatchProfiler } from '../../engine/backends/webgpu/command-queue';

/** Two timestamps per dispatch; a batch holds at most 64 dispatches (the queue's submit size). */
const QUERIES_PER_SET = 256;

interface Batch {
  querySet: GPUQuerySet;
  labels: string[];
  resolved: GPUBuffer | null;
  readback: GPUBuffer | null;
}

export interface DispatchTime {
  label: string;
  /** Nanoseconds between the pass's start and end timestamps. */
  ns: number;
}

/** The WebGPU backend of a device, if it has one that can write timestamps. */
export function timestampBackend(device: Device): WebGPUBackend | null {
  const backend = device.backend as Partial<WebGPUBackend> & { kind: string };
  if (backend.kind !== 'webgpu' || !backend.device || !backend.context) return null;
  return backend.device.features.has('timestamp-query') ? (backend as WebGPUBackend) : null;
}

export class GpuTimer implements DispatchProfiler {
  private current: Batch | null = null;
  private readonly done: Batch[] = [];
  /** Dispatches left untimed (a full query set). */
  untimed = 0;

  constructor(private readonly device: GPUDevice) {}

  timestampWrites(label: string): GPUComputePassTimestampWrites | null {
    if (!this.current) {
      this.current = {
        querySet: this.device.createQuerySet({ type: 'timestamp', count: QUERIES_PER_SET }),
        labels: [],
        resolved: null,
        readback: null,
      };
    }
    const batch = this.current;
    const index = batch.labels.length * 2;
    if (index + 2 > QUERIES_PER_SET) {
      this.untimed++;
      return null;
    }
    batch.labels.push(label);
    return {
      querySet: batch.querySet,
      beginningOfPassWriteIndex: index,
      endOfPassWriteIndex: index + 1,
    };
  }

  resolve(encoder: GPUCommandEncoder): void {
    const batch = this.current;
    if (!batch || batch.labels.length === 0) return;
    this.current = null;
    const count = batch.labels.length * 2;
    const bytes = count * 8;
    batch.resolved = this.device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    batch.readback = this.device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    encoder.resolveQuerySet(batch.querySet, 0, count, batch.resolved, 0);
    encoder.copyBufferToBuffer(batch.resolved, 0, batch.readback, 0, bytes);
    this.done.push(batch);
  }

  /**
   * The time of every timed dispatch; call after the device has finished (synchronize), and
   * once: the timer's GPU objects are released.
   */
  async collect(): Promise<DispatchTime[]> {
    const times: DispatchTime[] = [];
    for (const batch of this.done.splice(0)) {
      const readback = batch.readback;
      if (!readback) continue;
      await readback.mapAsync(GPUMapMode.READ);
      const stamps = new BigUint64Array(readback.getMappedRange().slice(0));
      readback.unmap();
      batch.labels.forEach((label, i) => {
        const begin = stamps[2 * i];
        const end = stamps[2 * i + 1];
        // Implementations may clamp or quantize timestamps; a negative span is noise, not time.
        times.push({ label, ns: end > begin ? Number(end - begin) : 0 });
      });
      batch.querySet.destroy();
      batch.resolved?.destroy();
      readback.destroy();
    }
    this.current?.querySet.destroy();
    this.current = null;
    return times;
  }
}

/** A kernel label `elementwise[add|f32f32>f32|…]` as the op a reader knows: `elementwise:add`. */
export function opName(label: string): string {
  const open = label.indexOf('[');
  if (open < 0) return label;
  const name = label.slice(0, open);
  const key = label.slice(open + 1, label.endsWith(']') ? -1 : undefined);
  const first = key.split('|')[0];
  if ((name === 'elementwise' || name === 'reduce' || name === 'random') && first) {
    return `${name}:${first}`;
  }
  return name;
}
