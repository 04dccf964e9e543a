/**
 * Where the build puts Pyodide (from the npm `pyodide` package) under our own origin, and which
 * of its files: the loader, the interpreter (asm.mjs + asm.wasm), the standard library and the
 * lock file Pyodide reads at start. scripts/pyodide-assets.ts copies exactly these; the service
 * worker precaches them; the kernel loads them from here. Nothing else of Pyodide is served.
 */
export const PYODIDE_FOLDER = 'pyodide';

export const PYODIDE_FILES = [
  'pyodide.mjs',
  'pyodide.asm.mjs',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
  'pyodide-lock.json',
] as const;
