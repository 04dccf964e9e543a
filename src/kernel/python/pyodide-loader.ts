/**
 * Starts Pyodide for the kernel: the interpreter and standard library come from `indexURL` (our
 * own origin in the browser, node_modules in Node tests), never from a CDN — the lock file and
 * package base URL point at the same place, so even `pyodide.loadPackage` could only ask our
 * server (which has no packages). Then our kernel modules go in (streams, import guard,
 * interruptible sleep, guarded run_sync, cell runner: the `.py` files in ./modules/), then
 * gpubook's Python packages.
 */
import type { PyodideAPI, loadPyodide } from 'pyodide';
import { installPythonPackages } from '../../api/python/install';
import type { StreamName } from '../protocol';
import { reportPrinted } from '../outputs/auto-chart';
import DEFINE_MODULE from './define_module.py?raw';
import type { PythonDisplayMessage } from './python-kernel';

export type LoadPyodide = typeof loadPyodide;

export interface PyodideLoadOptions {
  /** Brings Pyodide's loader in only when a Python cell first runs (it is not in our bundle). */
  importLoader(): Promise<LoadPyodide>;
  /** Folder holding pyodide.asm.{mjs,wasm}, python_stdlib.zip and pyodide-lock.json; ends in `/`. */
  indexURL: string;
  /** Pyodide's interrupt buffer: 2 (SIGINT) written there raises KeyboardInterrupt. */
  interruptBuffer: Int32Array | null;
  /** The TypeScript cell globals, for the Python packages (torch, print, display, …). */
  globals: Record<string, unknown>;
  /** Where `sys.stdout` / `sys.stderr` write: the running cell's outputs. */
  write(name: StreamName, text: string): void;
  /** Where IPython's `display` sends a bundle (a new output or an update of one). */
  display?(message: PythonDisplayMessage): void;
  /** IPython's `clear_output(wait)`. */
  clearOutput?(wait: boolean): void;
}

/**
 * The kernel's own Python modules, `modules/<name>.py` each, in the order they are defined (a
 * module may import those before it: the cell runner imports the import guard's `package_dirs`).
 * They are defined from source without a file (./define_module.py), so they never show up as
 * installed packages and the traceback filter hides their frames by their `<gpubook …>` name.
 */
export const KERNEL_MODULES = {
  streams: '_gpubook_streams',
  importGuard: '_gpubook_import_guard',
  sleep: '_gpubook_sleep',
  runSync: '_gpubook_run_sync',
  runCell: '_gpubook_run_cell',
} as const;

/** Each kernel module's source (modules/*.py as text, by Vite's `?raw`), in definition order. */
export function kernelModuleSources(): Array<[name: string, source: string]> {
  const files = import.meta.glob<string>('./modules/*.py', {
    query: '?raw',
    import: 'default',
    eager: true,
  });
  const byName = new Map(
    Object.entries(files).map(([path, text]) => [path.replace(/^.*\/|\.py$/g, ''), text]),
  );
  const names: string[] = Object.values(KERNEL_MODULES);
  const problems = [
    ...[...byName.keys()]
      .filter((name) => !names.includes(name))
      .map((name) => `${name}.py is not in KERNEL_MODULES`),
    ...names.filter((name) => !byName.has(name)).map((name) => `${name}.py is missing`),
  ];
  if (problems.length) throw new Error(`src/kernel/python/modules: ${problems.join('; ')}`);
  return names.map((name) => [name, byName.get(name) as string]);
}

export async function startPyodide(options: PyodideLoadOptions): Promise<PyodideAPI> {
  const loadPyodide = await options.importLoader();
  const py = await loadPyodide({
    indexURL: options.indexURL,
    lockFileURL: `${options.indexURL}pyodide-lock.json`,
    packageBaseUrl: options.indexURL,
    // Startup chatter goes to the console, not into a cell.
    stdout: (line: string) => console.debug(`[pyodide] ${line}`),
    stderr: (line: string) => console.debug(`[pyodide] ${line}`),
  });
  if (options.interruptBuffer) py.setInterruptBuffer(options.interruptBuffer);

  const define = py.runPython(DEFINE_MODULE) as (name: string, source: string) => unknown;
  for (const [name, source] of kernelModuleSources()) destroyProxy(define(name, source));
  destroyProxy(define);

  const streams = py.pyimport(KERNEL_MODULES.streams) as {
    install(
      write: (name: StreamName, text: string) => void,
      epochLog: (numbers: string) => void,
    ): void;
  };
  streams.install(
    (name, text) => options.write(name, text),
    (numbers) => reportPrinted(JSON.parse(numbers) as unknown),
  );
  destroyProxy(streams);
  for (const name of [KERNEL_MODULES.importGuard, KERNEL_MODULES.sleep]) {
    const module = py.pyimport(name) as { install(): void };
    module.install();
    destroyProxy(module);
  }
  if (options.interruptBuffer) {
    // Before our packages import run_sync: they must get the guarded one.
    const guard = py.pyimport(KERNEL_MODULES.runSync) as {
      install(buffer: Int32Array): void;
    };
    guard.install(options.interruptBuffer);
    destroyProxy(guard);
  }

  installPythonPackages(py, { globals: options.globals });
  // IPython's display protocol (our IPython package) reaches the running cell.
  const runCell = py.pyimport(KERNEL_MODULES.runCell) as {
    install_display(publish: (json: string) => void, clear: (wait: boolean) => void): void;
  };
  runCell.install_display(
    (json) => options.display?.(JSON.parse(json) as PythonDisplayMessage),
    (wait) => options.clearOutput?.(wait),
  );
  destroyProxy(runCell);
  return py;
}

/** PyProxies hold a reference in Python until destroyed; plain values need nothing. */
export function destroyProxy(value: unknown): void {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
  const proxy = value as { destroy?: unknown };
  if (typeof proxy.destroy === 'function') (proxy as { destroy(): void }).destroy();
}
