/**
 * A kernel session's Python in Node, for the kernel's Python tests: Pyodide from node_modules, and
 * no engine (the cells under test need only Python); and a session that runs cells on it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CellLanguage, CellOutput, DoneEvent, WorkerEvent } from '../../protocol';
import { KernelSession, type EngineSetup } from '../../session';
import type { StageFile } from '../packages/package-loader';
import { PythonKernel, type StartPython } from '../python-kernel';

const indexURL = `${dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))}/`;

/** Node's Pyodide installs a package from a file path (the browser's from a Blob URL). */
export const stageAsTempFile: StageFile = (fileName, bytes) => {
  const folder = mkdtempSync(join(tmpdir(), 'gpubook-package-'));
  const path = join(folder, fileName);
  writeFileSync(path, bytes);
  return Promise.resolve({ url: path, release: () => rmSync(folder, { recursive: true }) });
};

export const startNodePython: StartPython = (host) =>
  PythonKernel.start({
    ...host,
    indexURL,
    stageFile: stageAsTempFile,
    importLoader: async () => (await import('pyodide')).loadPyodide,
  });

export const noEngine = async (): Promise<EngineSetup> => ({
  info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
  globals: {},
});

/**
 * A kernel session as the page drives it: `run` sends a cell and resolves with its `done`;
 * `events` holds everything the session sent, `outputsOf` a cell's outputs in order.
 */
export function startSession(
  options: {
    python?: StartPython;
    buffer?: SharedArrayBuffer;
    /** Sees each event as the page would (e.g. to answer fetch-package-file). */
    onEvent?: (event: WorkerEvent, session: KernelSession) => void;
  } = {},
) {
  const events: WorkerEvent[] = [];
  const waiters = new Map<string, (event: DoneEvent) => void>();
  const session = new KernelSession(
    (event) => {
      events.push(event);
      options.onEvent?.(event, session);
      if (event.type === 'done') waiters.get(event.cellId)?.(event);
    },
    noEngine,
    options.python,
  );
  session.handle({ type: 'init', params: {}, interruptFlag: options.buffer ?? null });
  let count = 0;
  const run = (code: string, language: CellLanguage = 'python') => {
    const cellId = `c${++count}`;
    const done = new Promise<DoneEvent>((resolve) => waiters.set(cellId, resolve));
    session.handle({ type: 'execute', cellId, code, executionCount: count, language });
    return done;
  };
  const outputsOf = (cellId: string): CellOutput[] =>
    events.flatMap((e) => (e.type === 'output' && e.cellId === cellId ? e.outputs : []));
  return { session, events, run, outputsOf };
}
