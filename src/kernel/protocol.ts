/**
 * The one typed message protocol between the page (host) and the kernel worker.
 *
 * Everything that crosses `postMessage` is declared here, so host and worker cannot drift apart:
 * requests flow host → worker, events flow worker → host. Outputs are shaped after nbformat's
 * output types so a notebook saves them as they are.
 */

/** A MIME bundle as in nbformat: `text/plain` always, richer renderings beside it. */
export interface MimeBundle {
  'text/plain': string;
  'text/html'?: never; // never produced: outputs must not carry markup that could run
  'image/png'?: string; // base64
  'image/svg+xml'?: string;
  [mime: `application/vnd.gpubook.${string}+json`]: unknown;
}

export type StreamName = 'stdout' | 'stderr';

export type CellOutput =
  | { kind: 'stream'; name: StreamName; text: string }
  | { kind: 'result'; executionCount: number; data: MimeBundle }
  | { kind: 'display'; data: MimeBundle; displayId?: string }
  | { kind: 'error'; ename: string; evalue: string; traceback: string[] };

export type BackendName = 'webgpu' | 'cpu';

export interface KernelInfo {
  backend: BackendName;
  /** A human description of the adapter, e.g. "google swiftshader". */
  adapter: string | null;
  /** Whether interrupt can stop synchronous code without restarting (needs SharedArrayBuffer). */
  cooperativeInterrupt: boolean;
}

// ---------------------------------------------------------------------------------------------
// host → worker

export interface InitRequest {
  type: 'init';
  /** The page link's query parameters, read-only in cells as `params`. */
  params: Record<string, string>;
  /** Int32Array view over a SharedArrayBuffer: slot 0 set to 1 means "interrupt now". */
  interruptFlag: SharedArrayBuffer | null;
}

export interface ExecuteRequest {
  type: 'execute';
  cellId: string;
  code: string;
  executionCount: number;
}

/** Stops the running cell at its next await or loop iteration, and drops the queued ones. */
export interface InterruptRequest {
  type: 'interrupt';
}

export type HostRequest = InitRequest | ExecuteRequest | InterruptRequest;

// ---------------------------------------------------------------------------------------------
// worker → host

export interface ReadyEvent {
  type: 'ready';
  info: KernelInfo;
}

export interface StartedEvent {
  type: 'started';
  cellId: string;
}

/** Outputs appended to a cell, batched so a cell printing a million lines stays cheap. */
export interface OutputEvent {
  type: 'output';
  cellId: string;
  outputs: CellOutput[];
}

/** Replaces a `display` output that carries the same displayId (live charts, progress bars). */
export interface UpdateDisplayEvent {
  type: 'update-display';
  cellId: string;
  displayId: string;
  data: MimeBundle;
}

export interface DoneEvent {
  type: 'done';
  cellId: string;
  status: 'ok' | 'error' | 'interrupted';
  /** Outputs the kernel dropped because the cell produced more than it keeps. */
  droppedOutputs: number;
}

export type WorkerEvent = ReadyEvent | StartedEvent | OutputEvent | UpdateDisplayEvent | DoneEvent;

/** Mime type of a table output: rows of records, columns in first-seen order. */
export const TABLE_MIME = 'application/vnd.gpubook.table+json';
export interface TableData {
  columns: string[];
  rows: unknown[][];
}
