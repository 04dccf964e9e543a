/**
 * A real KernelClient over a scripted worker, for Node tests of the client and of the notebook
 * store (a real worker needs a browser). The test plays the worker's side — ready, started,
 * outputs, done, a crash — and reads what the client sent it.
 */
import { KernelClient, type WorkerPort, type WorkerPortEvents } from '../client';
import type {
  CellOutput,
  DoneEvent,
  ExecuteRequest,
  HostRequest,
  KernelInfo,
  MimeBundle,
} from '../protocol';

export class ScriptedKernel {
  readonly client: KernelClient;
  /** Every execute request the client sent, to any of its workers, in order. */
  readonly executed: Omit<ExecuteRequest, 'type'>[] = [];
  /** Interrupt requests sent to the worker. */
  interrupts = 0;
  /** Workers the client opened (a restart, hard interrupt or crash opens another). */
  workersOpened = 0;
  private events: WorkerPortEvents | null = null;
  private current: ExecuteRequest | null = null;

  constructor(options: { hardInterruptAfterMs?: number } = {}) {
    this.client = new KernelClient({
      openWorker: (events) => this.open(events),
      params: {},
      hardInterruptAfterMs: options.hardInterruptAfterMs ?? 1,
    });
  }

  get disposed(): boolean {
    return this.client.state === 'dead';
  }

  /** The cell the worker was asked to run and has not finished. */
  get runningCellId(): string | null {
    return this.current?.cellId ?? null;
  }

  ready(backend: KernelInfo['backend'] = 'webgpu'): void {
    const info: KernelInfo = { backend, adapter: 'google swiftshader', cooperativeInterrupt: true };
    this.emit({ type: 'ready', info });
  }

  startRunning(): void {
    const run = this.current;
    if (run) this.emit({ type: 'started', cellId: run.cellId });
  }

  output(outputs: CellOutput[]): void {
    const run = this.current;
    if (run) this.emit({ type: 'output', cellId: run.cellId, outputs });
  }

  updateDisplay(displayId: string, data: MimeBundle): void {
    const run = this.current;
    if (run) this.emit({ type: 'update-display', cellId: run.cellId, displayId, data });
  }

  /** Plays one whole cell: started, its outputs, done. */
  finish(outputs: CellOutput[], status: DoneEvent['status'] = 'ok', droppedOutputs = 0): void {
    const run = this.current;
    if (!run) throw new Error('no cell is running');
    this.current = null;
    this.emit({ type: 'started', cellId: run.cellId });
    if (outputs.length > 0) this.emit({ type: 'output', cellId: run.cellId, outputs });
    this.emit({ type: 'done', cellId: run.cellId, status, droppedOutputs });
  }

  /** An uncaught error in the worker. */
  crash(): void {
    this.events?.crash();
  }

  private open(events: WorkerPortEvents): WorkerPort {
    this.workersOpened += 1;
    this.events = events;
    this.current = null;
    return {
      post: (request: HostRequest) => this.received(request),
      terminate: () => {
        if (this.events === events) this.events = null;
      },
    };
  }

  private received(request: HostRequest): void {
    if (request.type === 'execute') {
      if (this.current) throw new Error('the client sent a second cell while one was running');
      const { cellId, code, executionCount, language } = request;
      this.executed.push({ cellId, code, executionCount, language });
      this.current = request;
    } else if (request.type === 'interrupt') {
      this.interrupts += 1;
    }
  }

  private emit(event: Parameters<WorkerPortEvents['event']>[0]): void {
    this.events?.event(event);
  }
}
