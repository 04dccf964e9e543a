/**
 * Starts Pyodide for the kernel: the interpreter and standard library come from `indexURL` (our
 * own origin in the browser, node_modules in Node tests), never from a CDN — the lock file and
 * package base URL point at the same place, so even `pyodide.loadPackage` could only ask our
 * server (which has no packages). Then our kernel modules go in (streams, import guard,
 * interruptible sleep, cell runner), then gpubook's Python packages.
 */
import type { PyodideAPI, loadPyodide } from 'pyodide';
import { installPythonPackages } from '../../api/python/install';
import type { StreamName } from '../protocol';
import { IMPORT_GUARD_MODULE, IMPORT_GUARD_SOURCE } from './import-guard-py';
import { RUN_CELL_MODULE, RUN_CELL_SOURCE } from './run-cell-py';
import { RUN_SYNC_GUARD_MODULE, RUN_SYNC_GUARD_SOURCE } from './run-sync-guard-py';
import { SLEEP_MODULE, SLEEP_SOURCE } from './sleep-py';
import { reportPrinted } from '../outputs/auto-chart';
import { STREAMS_MODULE, STREAMS_SOURCE } from './streams-py';

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
}

/** Module names under which the kernel's own Python lives (`_gpubook_<name>`). */
export const kernelModuleName = (name: string): string => `_gpubook_${name}`;

/** Defines a module from source without a file (so it never shows up as an installed package). */
const DEFINE_MODULE = `
import sys, types

def define_module(name, source):
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, "<gpubook " + name + ">", "exec"), module.__dict__)
    return module

define_module
`;

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
  const modules: Array<[string, string]> = [
    [STREAMS_MODULE, STREAMS_SOURCE],
    [IMPORT_GUARD_MODULE, IMPORT_GUARD_SOURCE],
    [SLEEP_MODULE, SLEEP_SOURCE],
    [RUN_SYNC_GUARD_MODULE, RUN_SYNC_GUARD_SOURCE],
    [RUN_CELL_MODULE, RUN_CELL_SOURCE],
  ];
  for (const [name, source] of modules) destroyProxy(define(kernelModuleName(name), source));
  destroyProxy(define);

  const streams = py.pyimport(kernelModuleName(STREAMS_MODULE)) as {
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
  for (const name of [IMPORT_GUARD_MODULE, SLEEP_MODULE]) {
    py.runPython(`import ${kernelModuleName(name)} as m; m.install(); del m`);
  }
  if (options.interruptBuffer) {
    // Before our packages import run_sync: they must get the guarded one.
    const guard = py.pyimport(kernelModuleName(RUN_SYNC_GUARD_MODULE)) as {
      install(buffer: Int32Array): void;
    };
    guard.install(options.interruptBuffer);
    destroyProxy(guard);
  }

  installPythonPackages(py, { globals: options.globals });
  return py;
}

/** PyProxies hold a reference in Python until destroyed; plain values need nothing. */
export function destroyProxy(value: unknown): void {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
  const proxy = value as { destroy?: unknown };
  if (typeof proxy.destroy === 'function') (proxy as { destroy(): void }).destroy();
}
