/**
 * Keeps the page's device panel current: posts the device report and memory snapshots (polled
 * every 250 ms while a cell runs, sent only when they changed, so at most four a second), empties
 * caches on request, and when a GPUDevice is lost tells the running cell and the page which device
 * it was, then has the engine recreate it so the kernel goes on without a reload.
 */
import type { DeviceReport, MemorySnapshot, WorkerEvent } from './protocol';

/** What the engine offers the monitor (engine-setup.ts wires the real functions). */
export interface DeviceHooks {
  report(): DeviceReport;
  memory(): MemorySnapshot[];
  emptyCache(): void;
  onLost(listener: (event: { device: string; reason: string }) => void): () => void;
  /** Recreates lost logical GPUs; returns their names. */
  recover(): string[];
}

/** The running cell, to charge a device loss to. */
export interface RunningCell {
  cellId: string;
  /** Writes to the cell's stderr. */
  warn(text: string): void;
}

export const MEMORY_POLL_MS = 250;

export class DeviceMonitor {
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastMemory = '';
  private lastReport = '';
  private stopLost: (() => void) | null = null;

  constructor(
    private readonly post: (event: WorkerEvent) => void,
    private readonly hooks: DeviceHooks,
    private readonly running: () => RunningCell | null,
    private readonly pollMs = MEMORY_POLL_MS,
  ) {}

  /** Sends the first report and snapshot and starts watching for lost devices. */
  start(): void {
    this.stopLost = this.hooks.onLost((event) => this.lost(event.device, event.reason));
    this.postReport();
    this.postMemory();
  }

  cellStarted(): void {
    this.stopPolling();
    this.timer = setInterval(() => this.postMemory(), this.pollMs);
  }

  /** A cell may have allocated, freed or reconfigured devices: send what changed. */
  cellFinished(): void {
    this.stopPolling();
    this.postReport();
    this.postMemory();
  }

  emptyCache(): void {
    this.hooks.emptyCache();
    this.postMemory();
    // A GPU whose queue still waits for data empties its pool once the data has arrived.
    setTimeout(() => this.postMemory(), this.pollMs);
  }

  dispose(): void {
    this.stopPolling();
    this.stopLost?.();
  }

  private stopPolling(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private postMemory(): void {
    const devices = this.hooks.memory();
    const key = JSON.stringify(devices);
    if (key === this.lastMemory) return;
    this.lastMemory = key;
    this.post({ type: 'memory', devices });
  }

  private postReport(): void {
    const report = this.hooks.report();
    const key = JSON.stringify(report);
    if (key === this.lastReport) return;
    this.lastReport = key;
    this.post({ type: 'devices', report });
  }

  private lost(device: string, reason: string): void {
    const cell = this.running();
    const recovered = this.hooks.recover();
    cell?.warn(
      `${device} was lost while this cell ran (${reason}). The kernel recreated ` +
        `${recovered.join(', ') || device}; tensors and models that lived on it are gone, so run ` +
        `the cells that made them again.\n`,
    );
    this.post({ type: 'device-lost', device, reason, cellId: cell?.cellId ?? null, recovered });
    this.postReport();
    this.postMemory();
  }
}
