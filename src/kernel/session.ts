/**
 * The kernel's state machine, independent of `self` so it can be tested in Node: one scope object
 * shared by all cells, cells run one at a time, outputs streamed through an OutputSink, errors
 * reported against the cell's lines, interrupts honoured.
 */
import { KernelInterrupt, reportError, type CellErrorReport } from './cell-errors';
import { compileCell, declareNames, RunControl } from './execute';
import { createIoGlobals } from './globals';
import { toMimeBundle } from './display';
import { DeviceMonitor, type DeviceHooks } from './device-monitor';
import { DEFAULT_LIMITS, OutputSink } from './output-sink';
import { shownInCell } from './outputs/live-display';
import {
  INTERRUPT_BUFFER_BYTES,
  PYTHON_SIGNAL_SLOT,
  type CellOutput,
  type ExecuteRequest,
  type HostRequest,
  type KernelInfo,
  type WorkerEvent,
} from './protocol';
import { ProtocolPackageFiles } from './python/packages/protocol-files';
import { runPythonCell, showPythonDisplay } from './python/python-cell';
import type { PythonKernel, StartPython } from './python/python-kernel';

export interface EngineSetup {
  info: KernelInfo;
  /** Cell API globals (torch, tf, …) layered under the notebook's own names. */
  globals: Record<string, unknown>;
  /** Lets the engine walk the notebook's names to see which tensors are still reachable. */
  setRoots?(roots: () => Iterable<unknown>): void;
  /** Gives the engine a way to write text (training logs) into the running cell's stdout. */
  attachOutput?(write: (text: string) => void): void;
  /** Device reports, memory snapshots and device loss, for the page's device panel. */
  devices?: DeviceHooks;
}

export type SetupEngine = (
  params: Record<string, string>,
  options?: { devices?: unknown },
) => Promise<EngineSetup>;

/** Lines the wrapper puts before a cell's first line; the same for every cell. */
const CELL_LINE_OFFSET = compileCell('', 0).lineOffset;

interface ActiveRun {
  request: ExecuteRequest;
  control: RunControl;
  sink: OutputSink;
  unhandled: CellErrorReport | null;
  interrupted: () => void;
}

export class KernelSession {
  private scope: Record<string, unknown> = {};
  private interruptFlag: Int32Array | null = null;
  private active: ActiveRun | null = null;
  private queue: Promise<void> = Promise.resolve();
  private lastCellId: string | null = null;
  private engine: EngineSetup | null = null;
  private monitor: DeviceMonitor | null = null;
  /** The globals TypeScript cells see; Python's packages get the same object. */
  private cellGlobals: Record<string, unknown> = {};
  private interruptBuffer: SharedArrayBuffer | null = null;
  /** Started by the first Python cell; a failed start is forgotten so the next cell retries. */
  private python: Promise<PythonKernel> | null = null;
  /** The same kernel once it has started (interrupt must reach it synchronously). */
  private pythonStarted: PythonKernel | null = null;
  /** Python's package files, asked of the page (fetch-package-file → package-*). */
  private readonly packageFiles = new ProtocolPackageFiles((event) => this.post(event));

  constructor(
    private readonly post: (event: WorkerEvent) => void,
    private readonly setupEngine: SetupEngine,
    /** Absent where no Python is available (TypeScript-only tests). */
    private readonly startPython?: StartPython,
  ) {}

  handle(request: HostRequest): void {
    switch (request.type) {
      case 'init':
        this.queue = this.queue.then(() =>
          this.init(request.params, request.interruptFlag, request.devices),
        );
        break;
      case 'execute':
        this.queue = this.queue.then(() => this.execute(request));
        break;
      case 'interrupt':
        this.active?.interrupted();
        if (this.active?.request.language === 'python') this.interruptPython();
        break;
      case 'empty-cache':
        this.monitor?.emptyCache();
        break;
      case 'package-progress':
      case 'package-fetched':
      case 'package-failed':
        // Not queued: the cell that asked is waiting for it.
        this.packageFiles.answer(request);
        break;
    }
  }

  /** For `unhandledrejection` / `error` events of the worker: charged to the running cell. */
  reportUnhandled(error: unknown): void {
    const report = reportError(error, 0);
    report.evalue = `${report.evalue} (in a promise nobody awaited)`;
    if (this.active) {
      this.active.unhandled ??= report;
      this.active.sink.add({ kind: 'error', ...report });
    } else if (this.lastCellId) {
      this.post({
        type: 'output',
        cellId: this.lastCellId,
        outputs: [{ kind: 'error', ...report }],
      });
    }
  }

  private async init(
    params: Record<string, string>,
    flag: SharedArrayBuffer | null,
    devices?: unknown,
  ): Promise<void> {
    this.interruptFlag = flag ? new Int32Array(flag) : null;
    this.interruptBuffer = flag;
    const sessionTarget = { current: () => this.active?.sink ?? null };
    const io = createIoGlobals(sessionTarget, params);
    let setup: EngineSetup;
    try {
      setup = await this.setupEngine(params, { devices });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setup = {
        info: {
          backend: 'cpu',
          adapter: `engine failed to start: ${message}`,
          cooperativeInterrupt: false,
        },
        globals: {},
      };
    }
    this.engine = setup;
    const globals = Object.assign(Object.create(null) as object, setup.globals, io);
    this.cellGlobals = globals as Record<string, unknown>;
    this.scope = Object.create(globals) as Record<string, unknown>;
    setup.setRoots?.(() => Object.values(this.scope));
    setup.attachOutput?.((text) => this.active?.sink.add({ kind: 'stream', name: 'stdout', text }));
    this.post({
      type: 'ready',
      info: { ...setup.info, cooperativeInterrupt: this.interruptFlag !== null },
    });
    if (setup.devices) {
      this.monitor = new DeviceMonitor(this.post, setup.devices, () => {
        const run = this.active;
        if (!run) return null;
        const warn = (text: string) => run.sink.add({ kind: 'stream', name: 'stderr', text });
        return { cellId: run.request.cellId, warn };
      });
      this.monitor.start();
    }
  }

  private async execute(request: ExecuteRequest): Promise<void> {
    const { cellId } = request;
    this.lastCellId = cellId;
    const sink = new OutputSink({
      outputs: (outputs) => this.post({ type: 'output', cellId, outputs }),
      updateDisplay: (displayId, data) =>
        this.post({ type: 'update-display', cellId, displayId, data }),
      clearOutput: () => this.post({ type: 'clear-output', cellId }),
    });
    let interrupt: () => void = () => {};
    const interrupted = new Promise<'interrupted'>((resolve) => {
      interrupt = () => resolve('interrupted');
    });
    const control = new RunControl(this.interruptFlag);
    const run: ActiveRun = {
      request,
      control,
      sink,
      unhandled: null,
      interrupted: () => {
        control.cancel();
        interrupt();
      },
    };
    this.active = run;
    this.post({ type: 'started', cellId });
    this.monitor?.cellStarted();

    let status: 'ok' | 'error' | 'interrupted' = 'ok';
    try {
      if (request.language === 'python') {
        // Python stops itself on interrupt (KeyboardInterrupt through Pyodide's buffer), so its
        // run is awaited to the end rather than raced: the interpreter is never left mid-cell.
        status = await runPythonCell(
          () => this.pythonKernel(),
          request,
          sink,
          (value) => this.addResult(sink, value, request.executionCount),
        );
      } else {
        const cell = compileCell(request.code, request.executionCount);
        declareNames(this.scope, cell.declaredNames);
        const outcome = await Promise.race([
          cell.run(this.scope, control).then((value) => ({ value })),
          interrupted,
        ]);
        if (outcome === 'interrupted') throw new KernelInterrupt();
        this.addResult(sink, outcome.value, request.executionCount);
      }
      // Let promise rejections nobody awaited surface while this cell is still the active one.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (run.unhandled && status === 'ok') status = 'error';
    } catch (error) {
      const interruptedRun = error instanceof KernelInterrupt || control.cancelled;
      status = interruptedRun ? 'interrupted' : 'error';
      const report = interruptedRun
        ? { ename: 'KeyboardInterrupt', evalue: 'Interrupted by the user', traceback: [] }
        : reportError(error, CELL_LINE_OFFSET, request.code.split('\n').length);
      sink.add({ kind: 'error', ...report });
    }
    await sink.close();
    this.active = null;
    if (sink.droppedOutputs > 0) {
      const text = `[${sink.droppedOutputs} more outputs were not kept: a cell keeps at most the first ${DEFAULT_LIMITS.maxOutputs} outputs and ${DEFAULT_LIMITS.maxTextChars} characters of text]\n`;
      this.post({ type: 'output', cellId, outputs: [{ kind: 'stream', name: 'stderr', text }] });
    }
    this.monitor?.cellFinished();
    this.post({ type: 'done', cellId, status, droppedOutputs: sink.droppedOutputs });
  }

  /** A cell's value as its `Out[n]`; a value the cell displayed itself is not shown twice. */
  private addResult(sink: OutputSink, value: unknown, executionCount: number): void {
    if (value === undefined || shownInCell(sink, value)) return;
    const bundle = toMimeBundle(value);
    sink.add(
      bundle instanceof Promise
        ? bundle.then((data): CellOutput => ({ kind: 'result', executionCount, data }))
        : { kind: 'result', executionCount, data: bundle },
    );
  }

  private pythonKernel(): Promise<PythonKernel> {
    if (!this.startPython) {
      return Promise.reject(new Error('This kernel has no Python (no Pyodide to load).'));
    }
    const buffer = this.interruptBuffer;
    const hasSignalSlot = buffer !== null && buffer.byteLength >= INTERRUPT_BUFFER_BYTES;
    this.python ??= this.startPython({
      interruptBuffer: hasSignalSlot ? new Int32Array(buffer, PYTHON_SIGNAL_SLOT * 4, 1) : null,
      globals: this.cellGlobals,
      write: (name, text) => this.active?.sink.add({ kind: 'stream', name, text }),
      display: (message) => this.active && showPythonDisplay(this.active.sink, message),
      clearOutput: (wait) => this.active?.sink.clear(wait),
      packageFiles: this.packageFiles,
    });
    this.python.then(
      (kernel) => (this.pythonStarted = kernel),
      () => (this.python = null),
    );
    return this.python;
  }

  /** Reaches a Python cell that waits on an await (running Python stops by the buffer). */
  private interruptPython(): void {
    try {
      this.pythonStarted?.interrupt();
    } catch (error) {
      this.active?.sink.add({
        kind: 'stream',
        name: 'stderr',
        text: `Interrupt could not reach Python: ${error instanceof Error ? error.message : String(error)}\n`,
      });
    }
  }
}
