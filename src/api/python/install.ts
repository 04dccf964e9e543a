/**
 * The Python faces (`torch`, `torchvision`, `torchmetrics`, `torchkeras`, `tqdm`, later
 * `tensorflow`): Python packages written over the same engine and torch-shaped layer the
 * TypeScript cells use. The kernel calls `installPythonPackages` once, after Pyodide has loaded
 * and before the first Python cell runs.
 *
 * The packages are real `.py` files beside this one (`torch/__init__.py`, …), bundled as text by
 * Vite's `?raw` and written into Pyodide's file system under {@link SITE}, which goes first on
 * `sys.path`. They reach the engine through one JavaScript module, `_gpubook` (./bridge.ts).
 */
import type { PyodideAPI } from 'pyodide';
import type { PyProxy, PyProxyWithHas } from 'pyodide/ffi';
import { createBridge } from './bridge';

export interface PythonHost {
  /**
   * The TypeScript cell globals as the kernel gives them to TypeScript cells (torch, nn, optim,
   * torchvision, torchkeras, torchmetrics, tf, print, display, tqdm, metricsLogger, params, …).
   */
  globals: Record<string, unknown>;
}

/** Where our packages live in Pyodide's file system. */
export const SITE = '/lib/gpubook';

/** Every `.py` file under this folder, keyed by its path relative to it (`torch/__init__.py`). */
export function pythonSources(): Record<string, string> {
  // Test fixtures (testing/) are Python too, but not part of the packages.
  const files = import.meta.glob<string>(['./**/*.py', '!./testing/**'], {
    query: '?raw',
    import: 'default',
    eager: true,
  });
  return Object.fromEntries(
    Object.entries(files).map(([path, text]) => [path.replace(/^\.\//, ''), text]),
  );
}

/** Writes our Python packages into Pyodide's file system and makes them importable. */
export function installPythonPackages(py: PyodideAPI, host: PythonHost): void {
  for (const [path, text] of Object.entries(pythonSources())) {
    const full = `${SITE}/${path}`;
    py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    py.FS.writeFile(full, text);
  }
  py.registerJsModule('_gpubook', createBridge(host.globals));
  // Our packages first on sys.path.
  const sys = py.pyimport('sys') as PyProxy & {
    path: PyProxyWithHas & { insert(index: number, entry: string): void };
  };
  const sysPath = sys.path;
  if (!sysPath.has(SITE)) sysPath.insert(0, SITE);
  sysPath.destroy();
  sys.destroy();
  // gpubook's notebook helpers (display, params, timeit, …) are every cell's names, as in
  // TypeScript cells (gpubook/_install.py).
  const install = py.pyimport('gpubook._install') as PyProxy & { install_builtins(): void };
  install.install_builtins();
  install.destroy();
}
