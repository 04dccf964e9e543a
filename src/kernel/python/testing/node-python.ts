/**
 * A kernel session's Python in Node, for the kernel's Python tests: Pyodide from node_modules, and
 * no engine (the cells under test need only Python).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { EngineSetup } from '../../session';
import { PythonKernel, type StartPython } from '../python-kernel';

const indexURL = `${dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))}/`;

export const startNodePython: StartPython = (host) =>
  PythonKernel.start({
    ...host,
    indexURL,
    importLoader: async () => (await import('pyodide')).loadPyodide,
  });

export const noEngine = async (): Promise<EngineSetup> => ({
  info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
  globals: {},
});
