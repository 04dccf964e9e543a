/**
 * The page's handle on the kernel worker (the notebook's kernel, in Jupyter's sense: not a WGSL
 * kernel): starts it, keeps the one run queue, streams the worker's events to listeners, and
 * interrupts or restarts it.
 *
 * The queue is Jupyter's: a run takes its execution count when it is sent (so cancelled runs leave
 * no gaps, and a new worker counts from 1 again), and a run that ends in error or interrupted
 * cancels everything queued behind it (Run all stops at the first error).
 *
 * Interrupt is cooperative first (a shared flag the rewritten cell checks in every loop and after
 * every await); if the cell does not stop within `hardInterruptAfterMs`, the worker is terminated
 * and a fresh one started, and listeners are told that the kernel's state was reset.
 *
 * Python package files the worker asks for (`fetch-package-file`) are fetched by the page through
 * the `fetchPackageFile` option, which the app supplies with its package base setting: the kernel
 * layer knows no settings, and the worker, where notebook code runs, reaches no other origin.
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
  type FetchPackageFileEvent,
  type HostRequest,
  type KernelInfo,
  type MemorySnapshot,
  type MimeBundle,
  type PackageFailureReason,
  type WorkerEvent,
} from './protocol';

export type KernelState = 'starting' | 'idle' | 'busy' | 'dead';

export type KernelResetReason = 'interrupt' | 'restart' | 'crash';

export interface KernelListener {
  state?(state: KernelState, info: KernelInfo | null): void;
  started?(cellId: string, executionCount: number): void;
  output?(cellId: string, outputs: CellOutput[]): void;
  updateDisplay?(cellId: string, displayId: string, data: MimeBundle): void;
  /** IPython's `clear_output()`: the cell's outputs so far are gone. */
  clearOutput?(cellId: string): void;
  done?(event: DoneEvent, executionCount: number): void;
  /** Queued runs dropped before they were sent (interrupt, an error before them, a restart). */
  cancelled?(cellIds: readonly string[]): void;
  /**
   * The worker was replaced: every variable defined by earlier cells is gone. `runningCellId` is
   * the cell that was running then (no `done` comes for it).
   */
  reset?(reason: KernelResetReason, runningCellId: string | null): void;
  /** The physical and logical GPUs (after start and whenever they change). */
  devices?(report: DeviceReport): void;
  /** Memory per device, a few times a second while a cell runs. */
  memory?(devices: MemorySnapshot[]): void;
  /** A GPU device was lost (and recreated by the kernel). */
  deviceLost?(event: DeviceLostEvent): void;
}

export type ExecutionResult = DoneEvent['status'] | 'cancelled';

interface Pending {
  cellId: string;
  code: string;
  language: CellLanguage;
  /** The app's own code (Jupyter's `silent`): takes no execution count, stops nothing queued. */
  silent: boolean;
  resolve(result: ExecutionResult): void;
}

interface Running extends Pending {
  executionCount: number;
}

/** What the client needs of a worker; `workerPort` adapts a real `Worker` to it. */
export interface WorkerPort {
  /** `transfer`: buffers handed over rather than copied (a package file's bytes). */
  post(request: HostRequest, transfer?: Transferable[]): void;
  terminate(): void;
}

/** How the worker talks back: its events, and a crash (an uncaught error in the worker). */
export interface WorkerPortEvents {
  event(event: WorkerEvent): void;
  crash(): void;
}

/** Adapts a browser `Worker` to the client's port. */
export function workerPort(worker: Worker, events: WorkerPortEvents): WorkerPort {
  worker.onmessage = (message: MessageEvent<WorkerEvent>) => events.event(message.data);
  worker.onerror = (error) => {
    error.preventDefault();
    events.crash();
  };
  return {
    post: (request, transfer = []) => worker.postMessage(request, transfer),
    terminate: () => worker.terminate(),
  };
}

/**
 * The file the worker asked for: a bare file name of the package base and the lock's hash, or
 * (`source: 'pypi'`, `%pip install`) a PyPI URL, which the fetcher checks itself.
 */
export type PackageFileRequest = Pick<
  FetchPackageFileEvent,
  'fileName' | 'sha256' | 'source' | 'url'
>;

/** What the page's fetcher found: the whole (verified) file, or why not. */
export type PackageFileAnswer =
  | { ok: true; bytes: ArrayBuffer; url: string; fromCache: boolean }
  | { ok: false; url: string; reason: PackageFailureReason; message: string };

/** Fetches one package file for the worker, reporting bytes as they arrive; never rejects. */
export type PackageFileFetcher = (
  request: PackageFileRequest,
  onProgress: (loaded: number, total: number | null) => void,
) => Promise<PackageFileAnswer>;

export interface KernelClientOptions {
  openWorker: (events: WorkerPortEvents) => WorkerPort;
  params: Record<string, string>;
  hardInterruptAfterMs?: number;
  /** The device settings each new worker starts with (read at every start and restart). */
  deviceSettings?: () => DeviceSettings | null;
  /** Answers the worker's `fetch-package-file`; without it every such request is refused. */
  fetchPackageFile?: PackageFileFetcher;
}

export class KernelClient {
  private worker: WorkerPort | null = null;
  private readonly queue: Pending[] = [];
  private running: Running | null = null;
  private executionCounter = 0;
  /** The current worker said `ready`: runs may be sent. */
  private workerReady = false;
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

  /**
   * Queues a cell; resolves when it has finished, or with 'cancelled' when it was dropped before
   * it ran (interrupt, restart, an error in a run before it).
   */
  execute(
    cellId: string,
    code: string,
    language: CellLanguage = 'typescript',
    options: { silent?: boolean } = {},
  ): Promise<ExecutionResult> {
    return new Promise((resolve) => {
      this.queue.push({ cellId, code, language, silent: options.silent ?? false, resolve });
      this.pump();
    });
  }

  /** The cell running now, if any. */
  get runningCellId(): string | null {
    return this.running?.cellId ?? null;
  }

  /** Whether the cell is running or waiting in the queue. */
  isPending(cellId: string): boolean {
    return this.running?.cellId === cellId || this.queue.some((p) => p.cellId === cellId);
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
    const worker = this.options.openWorker({
      // Events of a worker already replaced are ignored.
      event: (event) => {
        if (this.worker === worker) this.onEvent(event);
      },
      crash: () => {
        if (this.worker === worker) this.replaceWorker('crash');
      },
    });
    this.worker = worker;
    this.workerReady = false;
    this.executionCounter = 0;
    const shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated;
    const buffer = shared ? new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES) : null;
    this.interruptFlag = buffer ? new Int32Array(buffer) : null;
    this.post({
      type: 'init',
      params: this.options.params,
      interruptFlag: buffer,
      devices: this.options.deviceSettings?.() ?? null,
    });
  }

  private replaceWorker(reason: KernelResetReason): void {
    this.clearInterruptTimer();
    this.worker?.terminate();
    this.worker = null;
    const runningCellId = this.runningCellId;
    this.finishRunning(reason === 'restart' ? 'cancelled' : 'interrupted');
    this.cancelQueued();
    for (const l of this.listeners) l.reset?.(reason, runningCellId);
    this.spawn();
  }

  private onEvent(event: WorkerEvent): void {
    switch (event.type) {
      case 'ready':
        this.kernelInfo = event.info;
        this.workerReady = true;
        if (this.running) this.setState('busy');
        else this.pump(); // sends the first queued run (busy), or says idle
        break;
      case 'started': {
        const count = this.countOf(event.cellId);
        if (count !== null) for (const l of this.listeners) l.started?.(event.cellId, count);
        break;
      }
      case 'output':
        for (const l of this.listeners) l.output?.(event.cellId, event.outputs);
        break;
      case 'update-display':
        for (const l of this.listeners)
          l.updateDisplay?.(event.cellId, event.displayId, event.data);
        break;
      case 'clear-output':
        for (const l of this.listeners) l.clearOutput?.(event.cellId);
        break;
      case 'done': {
        const count = this.countOf(event.cellId);
        if (count === null) break; // a run this client no longer tracks
        for (const l of this.listeners) l.done?.(event, count);
        this.clearInterruptTimer();
        if (this.interruptFlag) {
          Atomics.store(this.interruptFlag, INTERRUPT_SLOT, 0);
          Atomics.store(this.interruptFlag, PYTHON_SIGNAL_SLOT, 0);
        }
        const silent = this.running?.silent ?? false;
        this.finishRunning(event.status);
        // Jupyter's rule: an error or an interrupt stops what was queued behind it.
        if (event.status !== 'ok' && !silent) this.cancelQueued();
        this.pump();
        break;
      }
      case 'devices':
        for (const l of this.listeners) l.devices?.(event.report);
        break;
      case 'memory':
        for (const l of this.listeners) l.memory?.(event.devices);
        break;
      case 'device-lost':
        for (const l of this.listeners) l.deviceLost?.(event);
        break;
      case 'fetch-package-file':
        void this.answerPackageFile(event);
        break;
    }
  }

  /** Fetches the file the worker asked for and answers that worker (if it is still the one). */
  private async answerPackageFile(event: FetchPackageFileEvent): Promise<void> {
    const worker = this.worker;
    const { requestId, fileName, sha256, source, url } = event;
    const post = (request: HostRequest, transfer?: Transferable[]) => {
      if (worker && this.worker === worker) worker.post(request, transfer);
    };
    const fetcher = this.options.fetchPackageFile;
    let answer: PackageFileAnswer;
    if (!fetcher) {
      answer = {
        ok: false,
        url: '',
        reason: 'refused',
        message: 'this page does not fetch Python packages',
      };
    } else {
      try {
        const request: PackageFileRequest = source
          ? { fileName, sha256, source, url }
          : { fileName, sha256 };
        answer = await fetcher(request, (loaded, total) =>
          post({ type: 'package-progress', requestId, loaded, total }),
        );
      } catch (error) {
        // The fetcher says why in its answer; anything thrown is a bug there, reported as such.
        answer = {
          ok: false,
          url: '',
          reason: 'offline',
          message: `fetching ${fileName} failed: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    if (answer.ok) {
      const { bytes, url, fromCache } = answer;
      post({ type: 'package-fetched', requestId, bytes, url, fromCache }, [bytes]);
    } else {
      const { url, reason, message } = answer;
      post({ type: 'package-failed', requestId, url, reason, message });
    }
  }

  /** The running cell's execution count, or null when `cellId` is not the running cell. */
  private countOf(cellId: string): number | null {
    return this.running?.cellId === cellId ? this.running.executionCount : null;
  }

  private pump(): void {
    if (this.running || !this.worker || !this.workerReady) return;
    const next = this.queue.shift();
    if (!next) {
      this.setState('idle');
      return;
    }
    if (!next.silent) this.executionCounter += 1;
    const running: Running = { ...next, executionCount: this.executionCounter };
    this.running = running;
    if (this.kernelState !== 'busy') this.setState('busy');
    const { cellId, code, language, executionCount } = running;
    this.post({ type: 'execute', cellId, code, executionCount, language });
  }

  private finishRunning(result: ExecutionResult): void {
    const running = this.running;
    this.running = null;
    running?.resolve(result);
  }

  private cancelQueued(): void {
    const dropped = this.queue.splice(0);
    if (dropped.length === 0) return;
    for (const l of this.listeners) l.cancelled?.(dropped.map((p) => p.cellId));
    for (const pending of dropped) pending.resolve('cancelled');
  }

  private clearInterruptTimer(): void {
    if (this.interruptTimer !== null) clearTimeout(this.interruptTimer);
    this.interruptTimer = null;
  }

  private post(request: HostRequest): void {
    this.worker?.post(request);
  }

  private setState(state: KernelState): void {
    this.kernelState = state;
    for (const l of this.listeners) l.state?.(state, this.kernelInfo);
  }
}
