/**
 * One Python interpreter per kernel worker, started on the first Python cell (Pyodide is ~13 MB;
 * TypeScript notebooks never load it). A restart replaces the worker and so gives a fresh Python.
 *
 * Each cell is one call of the async `run_cell` (modules/_gpubook_run_cell.py) from here. Awaiting
 * its coroutine makes it an asyncio task on Pyodide's event loop, whose steps run with stack
 * switching (JSPI): Python code under it may call `pyodide.ffi.run_sync(promise)` to block on a
 * JavaScript promise (our packages read GPU results back that way for `.item()` or
 * `print(tensor)`), which a plain synchronous call cannot.
 */
import type { PyAwaitable, PyCallable, PyProxy } from 'pyodide/ffi';
import type { MimeBundle, OutputMetadata, StreamName } from '../protocol';
import { KERNEL_MODULES, startPyodide, type PyodideLoadOptions } from './pyodide-loader';
import { rewriteShellLines } from './shell-lines';

export type PythonCellResult =
  | {
      status: 'ok';
      repr?: string;
      js?: unknown;
      /** The last expression's display bundle when it has more than its repr (JSON text). */
      bundle?: string;
    }
  | {
      status: 'error' | 'interrupted';
      ename: string;
      evalue: string;
      traceback: string[];
    };

/** What the kernel session gives the Python kernel; the worker adds where Pyodide comes from. */
export interface PythonSessionHost {
  interruptBuffer: Int32Array | null;
  globals: Record<string, unknown>;
  write(name: StreamName, text: string): void;
  /** IPython's display protocol: one bundle to show or update (see PythonDisplayMessage). */
  display?(message: PythonDisplayMessage): void;
  /** IPython's `clear_output(wait)`. */
  clearOutput?(wait: boolean): void;
}

/** What `IPython.display` publishes (modules/_gpubook_run_cell.py sends it as JSON text). */
export interface PythonDisplayMessage {
  data: MimeBundle;
  metadata: OutputMetadata;
  displayId: string | null;
  update: boolean;
}

export type StartPython = (host: PythonSessionHost) => Promise<PythonKernel>;

/** IPython's name for a cell in tracebacks: `File "Cell In[3]", line 2`. */
export const cellFilename = (executionCount: number): string => `Cell In[${executionCount}]`;

export class PythonKernel {
  private constructor(
    /**
     * `run_cell(source, filename)`, an async Python function: called plainly, not with
     * `callPromising`. Pyodide's docs say an async callee needs no promising call (its body runs
     * in event-loop steps that already switch stacks), and `callPromising` throws outright where
     * the runtime has no JSPI (Node 20 without its flag, browsers without it), where cells that
     * never block must still run.
     */
    private readonly runCell: PyCallable,
    private readonly interruptBuffer: Int32Array | null,
    /** Cancels the running cell's task when it waits on an await (modules/_gpubook_run_cell.py). */
    private readonly interruptAwait: PyCallable,
  ) {}

  static async start(options: PyodideLoadOptions): Promise<PythonKernel> {
    const py = await startPyodide(options);
    const module = py.pyimport(KERNEL_MODULES.runCell) as PyProxy & {
      run_cell: PyCallable;
      interrupt: PyCallable;
    };
    // Copies: attribute proxies are borrowed, and would go with the module's proxy.
    const runCell = module.run_cell.copy() as PyCallable;
    const interruptAwait = module.interrupt.copy() as PyCallable;
    module.destroy();
    return new PythonKernel(runCell, options.interruptBuffer, interruptAwait);
  }

  /**
   * The page asked to interrupt. Python code that is running stops by itself (the interrupt
   * buffer); this reaches a cell that is waiting on an await, where no Python runs to see it.
   * It can only be called then: while Python runs, the worker handles no messages.
   */
  interrupt(): void {
    // The page set the buffer too. Held back during the call, or it would raise
    // KeyboardInterrupt inside the call itself instead of in the cell.
    const buffer = this.interruptBuffer;
    const signal = buffer ? Atomics.exchange(buffer, 0, 0) : 0;
    const cancelled = this.interruptAwait() as boolean;
    // Not waiting on an await (e.g. blocked in run_sync on a GPU read-back): the signal goes
    // back, and Python raises KeyboardInterrupt as soon as it resumes.
    if (!cancelled && buffer && signal !== 0) Atomics.store(buffer, 0, signal);
  }

  async run(source: string, executionCount: number): Promise<PythonCellResult> {
    // An interrupt meant for an earlier (e.g. TypeScript) cell must not stop this one.
    if (this.interruptBuffer) Atomics.store(this.interruptBuffer, 0, 0);
    const { code } = rewriteShellLines(source);
    const cell = this.runCell(code, cellFilename(executionCount)) as PyAwaitable;
    const proxy = (await cell) as PyProxy;
    try {
      return proxy.toJs({ dict_converter: Object.fromEntries }) as PythonCellResult;
    } finally {
      proxy.destroy();
    }
  }
}
