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
import type { PyodideAPI } from 'pyodide';
import type { MimeBundle, OutputMetadata, StreamName } from '../protocol';
import { PackageFetchError } from './packages/fetch-verified';
import { PackageLoader, type ImportGuard, type StageFile } from './packages/package-loader';
import type { PackageFiles } from './packages/package-files';
import { PipInstaller } from './packages/pip';
import { pipInstallOf, type PipInstall } from './packages/pip-line';
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
  /** Where Pyodide's packages (numpy, pandas, …) come from: the page, over the protocol. */
  packageFiles?: PackageFiles;
}

/** Where the kernel gets package files and how it hands them to Pyodide's installer. */
export interface PackageOptions {
  packageFiles?: PackageFiles;
  /** Puts a file where `pyodide.loadPackage` reads it (a Blob URL, a temp file). */
  stageFile?: StageFile;
}

/** A kernel with no package source: every package import says so. */
const NO_PACKAGE_FILES: PackageFiles = {
  fetch: (fileName) =>
    Promise.reject(
      new PackageFetchError('', 'refused', `this kernel has no package source to get ${fileName}`),
    ),
};
const NO_STAGING: StageFile = () => Promise.reject(new Error('this kernel cannot install files'));

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
  /** Aborts the package loading before a cell (an interrupt while it fetches). */
  private loading: AbortController | null = null;
  private displays = 0;

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
    private readonly packages: PackageLoader,
    private readonly display: ((message: PythonDisplayMessage) => void) | undefined,
    private readonly write: (name: StreamName, text: string) => void,
    private readonly py: PyodideAPI,
    private readonly files: PackageFiles,
    /** `after_cell()`: the cell's matplotlib figures, shown after its `Out` or error. */
    private readonly afterCell: PyCallable,
  ) {}

  static async start(options: PyodideLoadOptions & PackageOptions): Promise<PythonKernel> {
    const py = await startPyodide(options);
    const guard = py.pyimport(KERNEL_MODULES.importGuard) as PyProxy & ImportGuard;
    const files = options.packageFiles ?? NO_PACKAGE_FILES;
    const packages = new PackageLoader(py, files, options.stageFile ?? NO_STAGING, guard);
    const module = py.pyimport(KERNEL_MODULES.runCell) as PyProxy & {
      run_cell: PyCallable;
      interrupt: PyCallable;
      after_cell: PyCallable;
    };
    // Copies: attribute proxies are borrowed, and would go with the module's proxy.
    const runCell = module.run_cell.copy() as PyCallable;
    const interruptAwait = module.interrupt.copy() as PyCallable;
    const afterCell = module.after_cell.copy() as PyCallable;
    module.destroy();
    return new PythonKernel(
      runCell,
      options.interruptBuffer,
      interruptAwait,
      packages,
      options.display,
      (name, text) => options.write(name, text),
      py,
      files,
      afterCell,
    );
  }

  /**
   * The page asked to interrupt. Python code that is running stops by itself (the interrupt
   * buffer); this reaches a cell that is waiting on an await, where no Python runs to see it.
   * It can only be called then: while Python runs, the worker handles no messages.
   */
  interrupt(): void {
    if (this.loading) {
      // Loading packages: no Python runs yet. The cell ends interrupted without running, and
      // the buffer the page set must not stop the next cell.
      if (this.interruptBuffer) Atomics.store(this.interruptBuffer, 0, 0);
      this.loading.abort();
      return;
    }
    // The page set the buffer too. Held back during the call, or it would raise
    // KeyboardInterrupt inside the call itself instead of in the cell.
    const buffer = this.interruptBuffer;
    const signal = buffer ? Atomics.exchange(buffer, 0, 0) : 0;
    const cancelled = this.interruptAwait() as boolean;
    // Not waiting on an await (e.g. blocked in run_sync on a GPU read-back): the signal goes
    // back, and Python raises KeyboardInterrupt as soon as it resumes.
    if (!cancelled && buffer && signal !== 0) Atomics.store(buffer, 0, signal);
  }

  /**
   * After the cell's result or error is shown: what IPython runs as post-execute hooks (the
   * matplotlib figures the cell left open). A failure here is written to stderr, not raised.
   */
  finishCell(): void {
    try {
      this.afterCell();
    } catch (error) {
      this.write('stderr', `${error instanceof Error ? error.message : String(error)}\n`);
    }
  }

  async run(source: string, executionCount: number): Promise<PythonCellResult> {
    // An interrupt meant for an earlier (e.g. TypeScript) cell must not stop this one.
    if (this.interruptBuffer) Atomics.store(this.interruptBuffer, 0, 0);
    const { code, replaced } = rewriteShellLines(source);
    const pips = replaced.flatMap((line) => pipInstallOf(line) ?? []);
    if (!(await this.loadPackages(code, pips))) {
      return {
        status: 'interrupted',
        ename: 'KeyboardInterrupt',
        evalue: '',
        traceback: ['KeyboardInterrupt'],
      };
    }
    const cell = this.runCell(code, cellFilename(executionCount)) as PyAwaitable;
    const proxy = (await cell) as PyProxy;
    try {
      return proxy.toJs({ dict_converter: Object.fromEntries }) as PythonCellResult;
    } finally {
      proxy.destroy();
    }
  }

  /**
   * Before the cell runs: its `%pip install` lines, then the Pyodide packages it imports, their
   * progress shown as one display output of the cell (before anything the cell prints). False
   * when an interrupt stopped it.
   */
  private async loadPackages(code: string, pips: PipInstall[]): Promise<boolean> {
    const modules = this.packages.importsOf(code);
    if (modules.length === 0 && pips.length === 0) return true;
    const displayId = `gpubook-packages-${++this.displays}`;
    // Each load shows its packages' lines; those of loads before it stay above them.
    let shown: string | null = null;
    let above = '';
    const show = (text: string) => {
      const update = shown !== null;
      shown = above ? `${above}\n${text}` : text;
      this.display?.({ data: { 'text/plain': shown }, metadata: {}, displayId, update });
    };
    const controller = new AbortController();
    this.loading = controller;
    try {
      for (const pip of pips) {
        const installer = new PipInstaller({
          py: this.py,
          loader: this.packages,
          files: this.files,
          write: this.write,
          show,
          signal: controller.signal,
        });
        await installer.run(pip);
        above = shown ?? '';
      }
      await this.packages.prepare(modules, show, controller.signal);
      return true;
    } catch (error) {
      if (controller.signal.aborted) return false;
      throw error;
    } finally {
      this.loading = null;
    }
  }
}
