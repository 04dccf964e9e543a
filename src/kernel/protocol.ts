/**
 * The one typed message protocol between the page (host) and the kernel worker.
 *
 * Everything that crosses `postMessage` is declared here, so host and worker cannot drift apart:
 * requests flow host → worker, events flow worker → host. Outputs are shaped after nbformat's
 * output types so a notebook saves them as they are.
 */
import type {
  DeviceReport,
  LogicalGpuReport,
  MemorySnapshot,
  PhysicalGpuReport,
} from '../engine/devices/report';
import type { DeviceSettings } from '../engine/devices/settings';
import type { DeviceBenchmarkReport } from '../engine/benchmark/report';

export type {
  DeviceBenchmarkReport,
  DeviceReport,
  DeviceSettings,
  LogicalGpuReport,
  MemorySnapshot,
  PhysicalGpuReport,
};

/**
 * A MIME bundle as in nbformat: `text/plain` always, richer renderings beside it (IPython's
 * display protocol, docs/python.md). Markup (`text/html`, `text/markdown`, `image/svg+xml`) is
 * only ever shown sanitized (src/notebook/security/sanitize.ts): no script in it runs.
 */
export interface MimeBundle {
  'text/plain': string;
  'text/html'?: string;
  'text/markdown'?: string;
  'text/latex'?: string;
  'image/png'?: string; // base64
  'image/jpeg'?: string; // base64
  'image/svg+xml'?: string;
  'application/json'?: unknown;
  [mime: `application/vnd.gpubook.${string}+json`]: unknown;
}

/** nbformat's output metadata, keyed by MIME type (`{"image/png": {"width": 100}}`). */
export type OutputMetadata = Record<string, unknown>;

export type StreamName = 'stdout' | 'stderr';

export type CellOutput =
  | { kind: 'stream'; name: StreamName; text: string }
  | { kind: 'result'; executionCount: number; data: MimeBundle; metadata?: OutputMetadata }
  | { kind: 'display'; data: MimeBundle; displayId?: string; metadata?: OutputMetadata }
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
  /**
   * A SharedArrayBuffer of INTERRUPT_BUFFER_BYTES: Int32 slot INTERRUPT_SLOT set to 1 means
   * "interrupt now" (TypeScript cells check it); slot PYTHON_SIGNAL_SLOT set to 2 (SIGINT) is
   * Pyodide's interrupt buffer, which raises KeyboardInterrupt in running Python code.
   */
  interruptFlag: SharedArrayBuffer | null;
  /**
   * The notebook's device settings (`metadata.gpubook.devices`): visible GPUs, memory growth and
   * logical GPU splits, applied before any cell runs. Untrusted (a shared link): the worker
   * validates them and falls back to the defaults, saying why in the device report.
   */
  devices?: DeviceSettings | null;
}

/** A notebook's cells are all in one language (nbformat's `kernelspec.language`). */
export type CellLanguage = 'typescript' | 'python';

/** Layout of the interrupt SharedArrayBuffer (see InitRequest.interruptFlag). */
export const INTERRUPT_SLOT = 0;
export const PYTHON_SIGNAL_SLOT = 1;
/** Pyodide's interrupt buffer holds a signal number; 2 is SIGINT, i.e. KeyboardInterrupt. */
export const PYTHON_SIGINT = 2;
export const INTERRUPT_BUFFER_BYTES = 8;

export interface ExecuteRequest {
  type: 'execute';
  cellId: string;
  code: string;
  executionCount: number;
  /** Absent means TypeScript (what every request was before Python notebooks). */
  language?: CellLanguage;
}

/** Stops the running cell at its next await or loop iteration, and drops the queued ones. */
export interface InterruptRequest {
  type: 'interrupt';
}

/** Returns every device's pooled, unused memory (the device panel's button). */
export interface EmptyCacheRequest {
  type: 'empty-cache';
}

/**
 * The page's answers to a FetchPackageFileEvent. Python packages are fetched by the page, not the
 * worker: the package base URL is an app setting the worker never sees (so notebook code cannot
 * point it elsewhere), and the worker's CSP keeps `connect-src 'self'`.
 */
export interface PackageProgressRequest {
  type: 'package-progress';
  requestId: number;
  /** Bytes received so far, and the file's size when the response says it. */
  loaded: number;
  total: number | null;
}
export interface PackageFetchedRequest {
  type: 'package-fetched';
  requestId: number;
  /** The whole file, sha256-checked by the page when the request named a hash. */
  bytes: ArrayBuffer;
  /** The absolute URL it came from (or would have), for messages. */
  url: string;
  /** Served from the page's package cache, not the network. */
  fromCache: boolean;
}
export interface PackageFailedRequest {
  type: 'package-failed';
  requestId: number;
  /** The absolute URL tried (empty when the name itself was refused). */
  url: string;
  /** Why: 'offline', 'http', 'integrity', 'refused'; `message` says it for people. */
  reason: PackageFailureReason;
  message: string;
}
export type PackageFailureReason = 'offline' | 'http' | 'integrity' | 'refused';

export type HostRequest =
  | InitRequest
  | ExecuteRequest
  | InterruptRequest
  | EmptyCacheRequest
  | PackageProgressRequest
  | PackageFetchedRequest
  | PackageFailedRequest;

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

/**
 * IPython's `clear_output()`: the cell's outputs so far are gone (with `wait=True` the kernel sends
 * this only when the next output comes, so a redrawing loop does not flicker).
 */
export interface ClearOutputEvent {
  type: 'clear-output';
  cellId: string;
}

export interface DoneEvent {
  type: 'done';
  cellId: string;
  status: 'ok' | 'error' | 'interrupted';
  /** Outputs the kernel dropped because the cell produced more than it keeps. */
  droppedOutputs: number;
}

/** The physical GPUs and their split into logical GPUs: after start and whenever it changes. */
export interface DevicesEvent {
  type: 'devices';
  report: DeviceReport;
}

/**
 * Bytes in use, peak, limit and pooled per device: after start, every ~250 ms while a cell runs
 * and memory changed (at most four a second), at the end of each cell and after emptyCache.
 */
export interface MemoryEvent {
  type: 'memory';
  devices: MemorySnapshot[];
}

/** A logical GPU's GPUDevice was lost; the kernel recreated it under the same name. */
export interface DeviceLostEvent {
  type: 'device-lost';
  device: string;
  reason: string;
  /** The cell that was running when it happened, if any. */
  cellId: string | null;
  /** The logical GPUs recreated. */
  recovered: string[];
}

/**
 * The worker asks the page for one file of the package base (a wheel named in the lock, or the
 * base's own `pyodide-lock.json`): a bare file name, which the page resolves against the base URL
 * in its settings and refuses if it is anything else (a path, a URL). Answered by one
 * `package-fetched` or `package-failed`, with `package-progress` before it.
 */
export interface FetchPackageFileEvent {
  type: 'fetch-package-file';
  requestId: number;
  fileName: string;
  /** Hex sha256 from the lock; null for the lock file itself. */
  sha256: string | null;
  /**
   * Set for `%pip install` of a pure-Python wheel: the file is `url` on PyPI instead of
   * `fileName` in the package base. The page fetches only URLs under `https://pypi.org/` (the
   * JSON API, sha256 null) and `https://files.pythonhosted.org/` (the wheel, its sha256 from
   * that API), refusing any other; `fileName` is the URL's last part, for messages.
   */
  source?: 'pypi';
  url?: string;
}

export type WorkerEvent =
  | FetchPackageFileEvent
  | ReadyEvent
  | StartedEvent
  | OutputEvent
  | UpdateDisplayEvent
  | ClearOutputEvent
  | DoneEvent
  | DevicesEvent
  | MemoryEvent
  | DeviceLostEvent;

/** Mime type of a table output: rows of records, columns in first-seen order. */
export const TABLE_MIME = 'application/vnd.gpubook.table+json';
export interface TableData {
  columns: string[];
  rows: unknown[][];
}

/** Mime type of a chart: one or more panels (subplots) of line or bar series. */
export const CHART_MIME = 'application/vnd.gpubook.chart+json';
export interface ChartSeriesData {
  name: string;
  /** [x, y] pairs in x order. */
  points: [number, number][];
  /** A detail line (e.g. the per-step loss): drawn thin, without markers, not counted as points. */
  detail?: boolean;
  dashed?: boolean;
}
export interface ChartPanelData {
  title?: string;
  kind: 'line' | 'bar';
  xLabel?: string;
  yLabel?: string;
  /** Fixed axis ends where they are known (accuracy on [0, 1], epochs 0..N); absent ends adapt. */
  xMin?: number;
  xMax?: number;
  yMin?: number;
  yMax?: number;
  /** Bar panels: the label of each x position 0..n-1. */
  categories?: string[];
  series: ChartSeriesData[];
}
export interface ChartData {
  title?: string;
  panels: ChartPanelData[];
}

/** Mime type of a progress bar (tqdm or Keras Progbar style). */
export const PROGRESS_MIME = 'application/vnd.gpubook.progress+json';
export interface ProgressData {
  value: number;
  /** The total, when known. */
  max: number | null;
  desc?: string;
  /** What is counted ('it' as in tqdm). */
  unit: string;
  /** Seconds since the bar started. */
  elapsed: number;
  /** Units per second, once measurable. */
  rate: number | null;
  /** Seconds left at the current rate, when the total is known. */
  remaining: number | null;
  /** Postfix values, already formatted (`loss=0.52`). */
  postfix: Record<string, string>;
  style: 'tqdm' | 'keras';
  /** Closed: the bar stops counting time. */
  done: boolean;
}

/**
 * Mime type of an image grid's description, beside its `image/png` (which holds the pixels,
 * labels drawn in, so the picture stays whole in Jupyter).
 */
export const IMAGE_MIME = 'application/vnd.gpubook.image+json';
export interface ImageGridData {
  width: number;
  height: number;
  images: number;
  columns: number;
  labels: string[];
}

/** Mime type of a GPU profile: the ops that took the most GPU time. */
export const PROFILE_MIME = 'application/vnd.gpubook.profile+json';
export interface ProfileRow {
  op: string;
  calls: number;
  totalMs: number;
  meanUs: number;
  /** Share of all timed GPU time, in percent. */
  percent: number;
}
export interface ProfileData {
  device: string;
  adapter: string;
  /** Wall time of the profiled function, device work included. */
  wallMs: number;
  /** Sum of the timed kernels. */
  gpuMs: number;
  dispatches: number;
  rows: ProfileRow[];
  /** Why some or all dispatches are untimed (no timestamp-query, …). */
  note?: string;
}

/**
 * Mime type of a device benchmark (`benchmarkDevice()`): a DeviceBenchmarkReport, beside its
 * Markdown as `text/plain`.
 */
export const BENCHMARK_MIME = 'application/vnd.gpubook.benchmark+json';
