/**
 * The kernel worker's Python: Pyodide from our own origin (`<base>pyodide/`, put there by the
 * build, precached by the service worker), imported only when the first Python cell runs, so a
 * TypeScript notebook never downloads it. The worker's CSP allows this: `script-src 'self'` for
 * the import and `'wasm-unsafe-eval'` for compiling the interpreter.
 */
import type { StageFile } from './packages/package-loader';
import type { LoadPyodide } from './pyodide-loader';
import { PYODIDE_FOLDER } from './pyodide-files';
import { PythonKernel, type StartPython } from './python-kernel';

export const startBrowserPython: StartPython = (host) => {
  const indexURL = new URL(`${import.meta.env.BASE_URL}${PYODIDE_FOLDER}/`, self.location.href)
    .href;
  return PythonKernel.start({
    ...host,
    indexURL,
    stageFile: stageAsBlob,
    importLoader: async () => {
      // A runtime URL, not a bundled module: Vite must leave this import alone.
      const loader = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
        loadPyodide: LoadPyodide;
      };
      return loader.loadPyodide;
    },
  });
};

/**
 * A package file as a Blob URL for `pyodide.loadPackage`, which takes the package's name and
 * version from the URL's last part: the file name goes after `#/` (fetch ignores the fragment).
 * The worker's CSP allows `blob:` in connect-src for this.
 */
const stageAsBlob: StageFile = (fileName, bytes) => {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  return Promise.resolve({
    url: `${url}#/${fileName}`,
    release: () => URL.revokeObjectURL(url),
  });
};
