/**
 * The kernel worker's Python: Pyodide from our own origin (`<base>pyodide/`, put there by the
 * build, precached by the service worker), imported only when the first Python cell runs, so a
 * TypeScript notebook never downloads it. The worker's CSP allows this: `script-src 'self'` for
 * the import and `'wasm-unsafe-eval'` for compiling the interpreter.
 */
import type { LoadPyodide } from './pyodide-loader';
import { PYODIDE_FOLDER } from './pyodide-files';
import { PythonKernel, type StartPython } from './python-kernel';

export const startBrowserPython: StartPython = (host) => {
  const indexURL = new URL(`${import.meta.env.BASE_URL}${PYODIDE_FOLDER}/`, self.location.href)
    .href;
  return PythonKernel.start({
    ...host,
    indexURL,
    importLoader: async () => {
      // A runtime URL, not a bundled module: Vite must leave this import alone.
      const loader = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
        loadPyodide: LoadPyodide;
      };
      return loader.loadPyodide;
    },
  });
};
