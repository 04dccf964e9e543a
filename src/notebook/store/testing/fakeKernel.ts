/**
 * A stand-in for KernelClient in Node tests (a real kernel needs a browser worker). It keeps the
 * client's contract — one running cell, `execute` resolving when the cell is done, events to
 * listeners, reset before a new worker starts — and lets a test play the worker's side.
 */
import type { ExecutionResult, KernelListener, KernelState } from '../../../kernel/client';
import type {
  CellLanguage,
  CellOutput,
  DoneEvent,
  KernelInfo,
  MimeBundle,
} from '../../../kernel/protocol';
import type { KernelHandle } from '../kernelSlice';

interface Execution {
  cellId: string;
  code: string;
  executionCount: number;
  language: CellLanguage;
  resolve(result: ExecutionResult): void;
}

export class FakeKernel implements KernelHandle {
  state: KernelState = 'dead';
  info: KernelInfo | null = null;
  /** Every execute request, in the order the store sent them. */
  readonly executed: Omit<Execution, 'resolve'>[] = [];
  interrupts = 0;
  disposed = false;
  private readonly listeners = new Set<KernelListener>();
  private pending: Execution | null = null;

  subscribe(listener: KernelListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.setState('starting');
  }

  execute(
    cellId: string,
    code: string,
    executionCount: number,
    language: CellLanguage = 'typescript',
  ): Promise<ExecutionResult> {
    if (this.pending) throw new Error('the store sent a second cell while one was running');
    return new Promise((resolve) => {
      this.pending = { cellId, code, executionCount, language, resolve };
      this.executed.push({ cellId, code, executionCount, language });
      if (this.state === 'idle') this.setState('busy');
    });
  }

  interrupt(): void {
    this.interrupts += 1;
  }

  restart(): void {
    this.replace('restart');
  }

  dispose(): void {
    this.disposed = true;
    this.pending?.resolve('cancelled');
    this.pending = null;
    this.setState('dead');
  }

  // --- the worker's side, driven by tests ---------------------------------------------------

  ready(backend: KernelInfo['backend'] = 'webgpu'): void {
    this.info = { backend, adapter: 'google swiftshader', cooperativeInterrupt: true };
    this.setState(this.pending ? 'busy' : 'idle');
  }

  get runningCellId(): string | null {
    return this.pending?.cellId ?? null;
  }

  /** Plays one whole cell: started, its outputs, done. */
  finish(outputs: CellOutput[], status: DoneEvent['status'] = 'ok', droppedOutputs = 0): void {
    const run = this.pending;
    if (!run) throw new Error('no cell is running');
    this.emit((l) => l.started?.(run.cellId));
    if (outputs.length > 0) this.emit((l) => l.output?.(run.cellId, outputs));
    this.emit((l) => l.done?.({ type: 'done', cellId: run.cellId, status, droppedOutputs }));
    this.pending = null;
    run.resolve(status);
    this.setState('idle');
  }

  startRunning(): void {
    const run = this.pending;
    if (run) this.emit((l) => l.started?.(run.cellId));
  }

  output(outputs: CellOutput[]): void {
    const run = this.pending;
    if (run) this.emit((l) => l.output?.(run.cellId, outputs));
  }

  updateDisplay(displayId: string, data: MimeBundle): void {
    const run = this.pending;
    if (run) this.emit((l) => l.updateDisplay?.(run.cellId, displayId, data));
  }

  /** The worker was replaced (hard interrupt, restart or crash), in KernelClient's order. */
  replace(reason: 'interrupt' | 'restart' | 'crash'): void {
    const run = this.pending;
    this.pending = null;
    run?.resolve(reason === 'restart' ? 'cancelled' : 'interrupted');
    this.emit((l) => l.reset?.(reason));
    this.setState('starting');
  }

  private setState(state: KernelState): void {
    this.state = state;
    this.emit((l) => l.state?.(state, this.info));
  }

  private emit(call: (listener: KernelListener) => void): void {
    for (const listener of this.listeners) call(listener);
  }
}
