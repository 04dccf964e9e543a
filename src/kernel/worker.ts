/**
 * The kernel worker's entry point: binds the session to `self` and sets up the engine with the
 * worker's WebGPU (navigator.gpu), if the browser has an adapter, and Python (Pyodide from our
 * origin) for Python notebooks.
 */
import { KernelSession } from './session';
import { setupEngine } from './engine-setup';
import { startBrowserPython } from './python/browser-python';
import type { HostRequest, WorkerEvent } from './protocol';

/** The parts of the worker's global scope used here (the DOM lib types `self` as a Window). */
interface WorkerScope {
  postMessage(message: WorkerEvent): void;
  onmessage: ((event: MessageEvent<HostRequest>) => void) | null;
  addEventListener(
    type: 'unhandledrejection',
    listener: (event: PromiseRejectionEvent) => void,
  ): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
const session = new KernelSession(
  (event: WorkerEvent) => scope.postMessage(event),
  setupEngine,
  startBrowserPython,
);

scope.onmessage = (event: MessageEvent<HostRequest>) => session.handle(event.data);
scope.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
  event.preventDefault();
  session.reportUnhandled(event.reason);
});
scope.addEventListener('error', (event: ErrorEvent) => {
  event.preventDefault();
  session.reportUnhandled(event.error ?? new Error(event.message));
});
