/**
 * Helper threads for the WASM GEMM: workers that share the kernel's WebAssembly.Memory and take
 * chunks of a product through a control block of Int32 words at the start of that memory. The
 * calling thread publishes a job, wakes the helpers (Atomics.notify), computes chunks itself and
 * then waits (Atomics.wait) until every chunk is done — so the product stays synchronous for it.
 * Chunks are claimed one at a time with a compare-and-swap, so a helper that wakes late (or
 * never: it may still be booting) only means the caller does more of the work itself.
 */

/** Control block layout (Int32 indices). `chunkLoop` repeats these as literals, see there. */
export const CTRL = {
  /** Job sequence number (low 20 bits); helpers Atomics.wait on it. */
  wake: 0,
  /** (seq << 12) | next chunk index: claimed with compareExchange, so a stale seq fails. */
  grab: 1,
  /** Chunks finished in the current job; the last finisher notifies it. */
  done: 2,
  /** Helpers that have booted and are waiting for work. */
  ready: 3,
  /** Chunks run by helpers since start (for tests and notes). */
  helperChunks: 4,
  /** Set when a chunk threw (a kernel trap); the caller reports it. */
  error: 5,
  // Job parameters (byte addresses and counts).
  a: 8,
  b: 9,
  c: 10,
  mPanels: 11,
  nPanels: 12,
  k: 13,
  ldc: 14,
  rowBlockPanels: 15,
  colBlockPanels: 16,
  rowBlocks: 17,
  colBlocks: 18,
  total: 19,
  aBatch: 20,
  bBatch: 21,
  cBatch: 22,
  mr: 23,
  nr: 24,
} as const;
/** Bytes reserved for the control block at address 0 of the memory. */
export const CTRL_BYTES = 256;
/** Chunk indices fit in the low 12 bits of the grab word. */
export const MAX_CHUNKS = 4095;

export type TileFn = (
  a: number,
  b: number,
  c: number,
  mPanels: number,
  nPanels: number,
  k: number,
  ldc: number,
) => void;

/**
 * Claims and runs chunks of job `seq` until none is left; returns how many it ran. Chunk index
 * → (batch, row block, column block), column blocks fastest. Self-contained on purpose (numeric
 * literals for the CTRL indices, no outside names): its source text is also the helpers' code.
 */
export function chunkLoop(ctrl: Int32Array, tile: TileFn, seq: number): number {
  let ran = 0;
  for (;;) {
    const word = Atomics.load(ctrl, 1);
    if (word >>> 12 !== seq) return ran;
    const index = word & 4095;
    const total = Atomics.load(ctrl, 19);
    if (index >= total) return ran;
    if (Atomics.compareExchange(ctrl, 1, word, word + 1) !== word) continue;
    // The claim succeeded, so job seq is still running and its parameters are the ones below.
    const k = ctrl[13];
    const ldc = ctrl[14];
    const mr = ctrl[23];
    const nr = ctrl[24];
    const rowBlockPanels = ctrl[15];
    const colBlockPanels = ctrl[16];
    const colBlocks = ctrl[18];
    const perBatch = ctrl[17] * colBlocks;
    const batch = Math.floor(index / perBatch);
    const rest = index - batch * perBatch;
    const rowBlock = Math.floor(rest / colBlocks);
    const p0 = rowBlock * rowBlockPanels;
    const q0 = (rest - rowBlock * colBlocks) * colBlockPanels;
    try {
      tile(
        ctrl[8] + batch * ctrl[20] + p0 * k * mr * 4,
        ctrl[9] + batch * ctrl[21] + q0 * k * nr * 4,
        ctrl[10] + batch * ctrl[22] + p0 * mr * ldc + q0 * nr * 4,
        Math.min(rowBlockPanels, ctrl[11] - p0),
        Math.min(colBlockPanels, ctrl[12] - q0),
        k,
        ldc,
      );
    } catch {
      Atomics.store(ctrl, 5, 1);
    }
    ran++;
    if (Atomics.add(ctrl, 2, 1) + 1 === total) Atomics.notify(ctrl, 2);
  }
}

/** The helper's script: instantiate the kernel on the shared memory, then serve jobs forever. */
function helperSource(): string {
  return `'use strict';
const chunkLoop = ${chunkLoop.toString()};
function serve(data) {
  const module = new WebAssembly.Module(data.bytes);
  const tile = new WebAssembly.Instance(module, { env: { memory: data.memory } }).exports.tile;
  const ctrl = new Int32Array(data.memory.buffer, 0, ${CTRL_BYTES / 4});
  let seen = Atomics.load(ctrl, ${CTRL.wake});
  Atomics.add(ctrl, ${CTRL.ready}, 1);
  for (;;) {
    Atomics.wait(ctrl, ${CTRL.wake}, seen);
    seen = Atomics.load(ctrl, ${CTRL.wake});
    const ran = chunkLoop(ctrl, tile, seen & 0xfffff);
    if (ran > 0) Atomics.add(ctrl, ${CTRL.helperChunks}, ran);
  }
}
if (typeof self === 'undefined' && typeof require === 'function') {
  serve(require('node:worker_threads').workerData);
} else {
  self.onmessage = (event) => serve(event.data);
}
`;
}

interface NodeProcess {
  versions?: { node?: string };
}
const nodeProcess = (globalThis as { process?: NodeProcess }).process;
const isNode = typeof nodeProcess?.versions?.node === 'string';

/**
 * Whether this thread may run a pool: shared memory and Atomics.wait must work here. Browsers
 * give SharedArrayBuffer only to cross-origin isolated pages, and forbid Atomics.wait on a
 * page's main thread (so the caller must be a worker); Node allows both everywhere.
 */
export function threadsPossible(): boolean {
  if (typeof SharedArrayBuffer !== 'function' || typeof Atomics === 'undefined') return false;
  if (isNode) return true;
  const scope = globalThis as { crossOriginIsolated?: boolean; document?: unknown };
  return scope.crossOriginIsolated === true && scope.document === undefined;
}

/** How many helpers to start: the other cores (the caller computes too), at most 7. */
async function helperCount(): Promise<number> {
  let cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator
    ?.hardwareConcurrency;
  if (isNode) {
    const specifier = 'node:os';
    const os = (await import(/* @vite-ignore */ specifier)) as {
      availableParallelism?: () => number;
      cpus: () => unknown[];
    };
    cores = os.availableParallelism?.() ?? os.cpus().length;
  }
  return Math.max(0, Math.min((cores ?? 1) - 1, 7));
}

interface NodeWorker {
  unref(): void;
  on(event: 'error', listener: (error: unknown) => void): void;
}
type NodeWorkerConstructor = new (
  source: string,
  options: { eval: true; workerData: unknown },
) => NodeWorker;

/**
 * Starts helpers in the background. Never waits for them: jobs just count those that are ready
 * (readyHelpers). Failures (no worker support, a CSP that forbids blob: workers) leave the pool
 * empty and the caller single-threaded. `count` overrides the core-based size.
 */
export async function startHelpers(
  memory: WebAssembly.Memory,
  bytes: Uint8Array<ArrayBuffer>,
  count?: number,
): Promise<number> {
  const helpers = count ?? (await helperCount());
  if (helpers === 0) return 0;
  const source = helperSource();
  let started = 0;
  if (isNode) {
    const specifier = 'node:worker_threads';
    const { Worker } = (await import(/* @vite-ignore */ specifier)) as {
      Worker: NodeWorkerConstructor;
    };
    for (let i = 0; i < helpers; i++) {
      const worker = new Worker(source, { eval: true, workerData: { memory, bytes } });
      // Helpers block in Atomics.wait forever; they must not keep the process alive.
      worker.unref();
      worker.on('error', () => {});
      started++;
    }
    return started;
  }
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  for (let i = 0; i < helpers; i++) {
    try {
      const worker = new Worker(url);
      worker.onerror = (event) => event.preventDefault();
      worker.postMessage({ memory, bytes });
      started++;
    } catch {
      break;
    }
  }
  return started;
}

export interface JobShape {
  /** Byte addresses of the packed A and B of batch 0, and of C's first row. */
  a: number;
  b: number;
  c: number;
  mPanels: number;
  nPanels: number;
  /** Padded K (a multiple of the kernel's unroll). */
  k: number;
  /** Bytes per row of C. */
  ldc: number;
  mr: number;
  nr: number;
  batches: number;
  aBatch: number;
  bBatch: number;
  cBatch: number;
  /** Rows of C per chunk (default CHUNK_ROWS). */
  chunkRows?: number;
}

/** Rows of C per chunk (an A block of ~96 rows × KC stays in L2 while B panels stream by). */
const CHUNK_ROWS = 96;

/**
 * Runs one job on this thread plus `helpers` woken helpers (0: alone), synchronously. Throws if
 * any chunk trapped.
 */
export function runJob(ctrl: Int32Array, tile: TileFn, job: JobShape, helpers: number): void {
  let rowBlockPanels = Math.max(1, Math.round((job.chunkRows ?? CHUNK_ROWS) / job.mr));
  let rowBlocks = Math.ceil(job.mPanels / rowBlockPanels);
  let colBlocks = 1;
  if (helpers > 0) {
    // Enough chunks that a late or slow thread does not leave the others idle at the end.
    const wanted = 4 * (helpers + 1);
    if (job.batches * rowBlocks < wanted) {
      colBlocks = Math.min(job.nPanels, Math.ceil(wanted / (job.batches * rowBlocks)));
    }
  }
  while (job.batches * rowBlocks * colBlocks > MAX_CHUNKS) {
    if (colBlocks > 1) colBlocks = Math.ceil(colBlocks / 2);
    else {
      rowBlockPanels *= 2;
      rowBlocks = Math.ceil(job.mPanels / rowBlockPanels);
    }
  }
  const colBlockPanels = Math.ceil(job.nPanels / colBlocks);
  colBlocks = Math.ceil(job.nPanels / colBlockPanels);
  const total = job.batches * rowBlocks * colBlocks;
  if (total > MAX_CHUNKS) throw new Error('gemm: too many batches for one job');

  const set = (index: number, value: number) => Atomics.store(ctrl, index, value);
  set(CTRL.a, job.a);
  set(CTRL.b, job.b);
  set(CTRL.c, job.c);
  set(CTRL.mPanels, job.mPanels);
  set(CTRL.nPanels, job.nPanels);
  set(CTRL.k, job.k);
  set(CTRL.ldc, job.ldc);
  set(CTRL.rowBlockPanels, rowBlockPanels);
  set(CTRL.colBlockPanels, colBlockPanels);
  set(CTRL.rowBlocks, rowBlocks);
  set(CTRL.colBlocks, colBlocks);
  set(CTRL.total, total);
  set(CTRL.aBatch, job.aBatch);
  set(CTRL.bBatch, job.bBatch);
  set(CTRL.cBatch, job.cBatch);
  set(CTRL.mr, job.mr);
  set(CTRL.nr, job.nr);
  set(CTRL.error, 0);
  set(CTRL.done, 0);
  const sequence = (Atomics.load(ctrl, CTRL.wake) + 1) & 0xfffff;
  // Publishing the grab word opens the job; the parameters above are written before it.
  set(CTRL.grab, sequence << 12);
  set(CTRL.wake, sequence);
  if (helpers > 0 && total > 1) Atomics.notify(ctrl, CTRL.wake, helpers);
  chunkLoop(ctrl, tile, sequence);
  for (;;) {
    const done = Atomics.load(ctrl, CTRL.done);
    if (done >= total) break;
    Atomics.wait(ctrl, CTRL.done, done);
  }
  if (Atomics.load(ctrl, CTRL.error) !== 0) {
    throw new Error('gemm: the WebAssembly kernel trapped (operand outside its memory?)');
  }
}
