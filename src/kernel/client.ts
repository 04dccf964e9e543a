/**
 * The page's handle on the kernel worker: starts it, queues cell executions, streams their events
 * to listeners, and interrupts or restarts it.
 *
 * Interrupt is cooperative first (a shared flag the rewritten cell checks in every loop and after
 * every await); if the cell does not stop within `hardInterruptAfterMs`, the worker is terminated
 * and a fresh one started, and listeners are told that the kernel's state was reset.
 */
import {
  INTERRUPT_BUFFER_BYTES,
  INTERRUPT_SLOT,
  PYTHON_SIGINT,
  PYTHON_SIGNAL_SLOT,
  type CellLanguage,
  type CellOutput,
  type DeviceLostEvent,
  type DeviceReport,
  type DeviceSettings,
  type DoneEvent,
  type ExecuteRequest,
  type HostRequest,
  type KernelInfo,
  type MemorySnapshot,
  type MimeBundle,
  type WorkerEvent,
} from './protocol';

export type KernelState = 'starting' | 'idle' | 'busy' | 'dead';

export interface KernelListener {
  state?(state: KernelState, info: KernelInfo | null): void;
  started?(cellId: string): void;
  output?(cellId: string, outputs: CellOutput[]): void;
  updateDisplay?(cellId: string, displayId: string, data: MimeBundle): void;
  done?(event: DoneEvent): void;
  /** The worker was replaced: every variable defined by earlier cells is gone. */
  reset?(reason: 'interrupt' | 'restart' | 'crash'): void;
  /** The physical and logical GPUs (after start and whenever they change). */
  devices?(report: DeviceReport): void;
  /** Memory per device, a few times a second while a cell runs. */
  memory?(devices: MemorySnapshot[]): void;
  /** A GPU device was lost (and recreated by the kernel). */
  deviceLost?(event: DeviceLostEvent): void;
}

export type ExecutionResult = DoneEvent['status'] | 'cancelled';

interface Pending {
  request: ExecuteRequest;
  resolve(result: ExecutionResult): void;
}

export interface KernelClientOptions {
  createWorker: () => Worker;
  params: Record<string, string>;
  hardInterruptAfterMs?: number;
  /** The device settings each new worker starts with (read at every start and restart). */
  deviceSettings?: () => DeviceSettings | null;
}

export class KernelClient {
  private worker: Worker | null = null;
  private readonly queue: Pending[] = [];
  private running: Pending | null = null;
  private readonly listeners = new Set<KernelListener>();
  private interruptFlag: Int32Array | null = null;
  private interruptTimer: ReturnType<typeof setTimeout> | null = null;
  private kernelState: KernelState = 'starting';
  private kernelInfo: KernelInfo | null = null;

  constructor(private readonly options: KernelClientOptions) {}

  get state(): KernelState {
    return this.kernelState;
  }

  get info(): KernelInfo | null {
    return this.kernelInfo;
  }

  subscribe(listener: KernelListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.spawn();
  }

  /** Queues a cell; resolves when it has finished (or was cancelled by an interrupt/restart). */
  execute(
    cellId: string,
    code: string,
    executionCount: number,
    language: CellLanguage = 'typescript',
  ): Promise<ExecutionResult> {
    return new Promise((resolve) => {
      const request: ExecuteRequest = { type: 'execute', cellId, code, executionCount, language };
      this.queue.push({ request, resolve });
      this.pump();
    });
  }

  /** Cells waiting behind the running one, in order. */
  get queuedCellIds(): string[] {
    return this.queue.map((p) => p.request.cellId);
  }

  interrupt(): void {
    this.cancelQueued();
    if (!this.running || !this.worker) return;
    if (this.interruptFlag) {
      Atomics.store(this.interruptFlag, INTERRUPT_SLOT, 1);
      // Python cells: Pyodide polls this slot and raises KeyboardInterrupt (it clears it itself).
      Atomics.store(this.interruptFlag, PYTHON_SIGNAL_SLOT, PYTHON_SIGINT);
    }
    this.post({ type: 'interrupt' });
    this.clearInterruptTimer();
    this.interruptTimer = setTimeout(
      () => this.replaceWorker('interrupt'),
      this.options.hardInterruptAfterMs ?? 1000,
    );
  }

  restart(): void {
    this.cancelQueued();
    this.replaceWorker('restart');
  }

  /** Asks the kernel to return pooled, unused device memory (it answers with a memory event). */
  emptyCache(): void {
    this.post({ type: 'empty-cache' });
  }

  dispose(): void {
    this.cancelQueued();
    this.finishRunning('cancelled');
    this.worker?.terminate();
    this.worker = null;
    this.setState('dead');
  }

  private spawn(): void {
    this.setState('starting');
    const worker = this.options.createWorker();
    this.worker = worker;
    const shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated;
    const buffer = shared ? new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES) : null;
    this.interruptFlag = buffer ? new Int32Array(buffer) : null;
    worker.onmessage = (event: MessageEvent<WorkerEvent>) => this.onEvent(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.replaceWorker('crash');
    };
    this.post({
      type: 'init',
      params: this.options.params,
      interruptFlag: buffer,
      devices: this.options.deviceSettings?.() ?? null,
    });
  }

  private replaceWorker(reason: 'interrupt' | 'restart' | 'crash'): void {
    this.clearInterruptTimer();
    this.worker?.terminate();
    this.worker = null;
    this.finishRunning(reason === 'restart' ? 'cancelled' : 'interrupted');
    this.cancelQueued();
    for (const l of this.listeners) l.reset?.(reason);
    this.spawn();
  }

  private onEvent(event: WorkerEvent): void {
    switch (event.type) {
      case 'ready':
        this.kernelInfo = event.info;
        this.setState(this.running ? 'busy' : 'idle');
        this.pump();
        break;
      case 'started':
        for (const l of this.listeners) l.started?.(event.cellId);
        break;
      case 'output':
        for (const l of this.listeners) l.output?.(event.cellId, event.outputs);
        break;
      case 'update-display':
        for (const l of this.listeners)
          l.updateDisplay?.(event.cellId, event.displayId, event.data);
        break;
      case 'done':
        for (const l of this.listeners) l.done?.(event);
        if (this.running?.request.cellId === event.cellId) {
          this.clearInterruptTimer();
          if (this.interruptFlag) {
            Atomics.store(this.interruptFlag, INTERRUPT_SLOT, 0);
            Atomics.store(this.interruptFlag, PYTHON_SIGNAL_SLOT, 0);
          }
          this.finishRunning(event.status);
        }
        this.pump();
        break;
      case 'devices':
        for (const l of this.listeners) l.devices?.(event.report);
        break;
      case 'memory':
        for (const l of this.listeners) l.memory?.(event.devices);
        break;
      case 'device-lost':
        for (const l of this.listeners) l.deviceLost?.(event);
        break;
    }
  }

  private pump(): void {
    if (this.running || !this.worker || this.kernelState === 'starting') return;
    const next = this.queue.shift();
    if (!next) {
      this.setState('idle');
      return;
    }
    this.running = next;
    this.setState('busy');
    this.post(next.request);
  }

  private finishRunning(result: ExecutionResult): void {
    const running = this.running;
    this.running = null;
    running?.resolve(result);
  }

  private cancelQueued(): void {
    for (const pending of this.queue.splice(0)) pending.resolve('cancelled');
  }

  private clearInterruptTimer(): void {
    if (this.interruptTimer !== null) clearTimeout(this.interruptTimer);
    this.interruptTimer = null;
  }

  private post(request: HostRequest): void {
    this.worker?.postMessage(request);
  }

  private setState(state: KernelState): void {
    this.kernelState = state;
    for (const l of this.listeners) l.state?.(state, this.kernelInfo);
  }
}
