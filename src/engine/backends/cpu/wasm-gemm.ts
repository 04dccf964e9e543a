/**
 * The CPU backend's fast matmul: operands packed into a WebAssembly memory, multiplied by the
 * emitted SIMD kernel (gemm-kernel.ts) — on helper threads too when the memory can be shared
 * (gemm-pool.ts) — and handed back row block by row block to a sink that stores them (with any
 * epilogue) wherever the caller wants. Synchronous for the caller in every case.
 */
import { CTRL, CTRL_BYTES, MAX_CHUNKS, runJob, startHelpers, threadsPossible } from './gemm-pool';
import type { TileFn } from './gemm-pool';
import {
  FMA_SHAPE,
  PLAIN_SHAPE,
  gemmKernelBytes,
  relaxedSimdSupported,
  type KernelShape,
} from './gemm-kernel';
import { matrix, packA, packB, type Matrix } from './pack';

/** The memory's maximum (2 GiB): byte addresses stay positive int32s in the control block. */
const MAX_PAGES = 32768;
/**
 * Packed operands plus C of one job stay under this many floats (16 MiB): larger products go in
 * row groups, whose C is still in the caches when the sink copies it out.
 */
const JOB_FLOATS = 4 << 20;
/** Fewest A panels per row group of a large product. */
const MIN_GROUP_PANELS = 64;
/**
 * Products below this many multiply-adds (~0.15 ms on one core) stay on the calling thread:
 * waking a helper costs ~10-50 µs.
 */
const THREAD_MIN_MACS = 1 << 22;

/**
 * Receives rows [r0, r0 + rows) of one batch's C: row r, column j is at
 * heap[cAt + (r - r0) * ldc + j]. The heap is only valid during the call.
 */
export type RowSink = (
  batch: number,
  r0: number,
  rows: number,
  heap: Float32Array,
  cAt: number,
  ldc: number,
) => void;

export interface Product {
  batches: number;
  m: number;
  k: number;
  n: number;
  /** Batch b's A (m×k) and B (k×n) as logical matrices. */
  a: (batch: number) => Matrix;
  b: (batch: number) => Matrix;
  sink: RowSink;
}

export interface GemmEngineOptions {
  /** Relaxed-SIMD FMA; default: when the engine validates it. */
  fma?: boolean;
  /** Helper threads; default: when shared memory and Atomics.wait work here. */
  threads?: boolean;
  /** Number of helpers; default: the other cores. */
  helpers?: number;
  /** Micro-kernel shape; default: FMA_SHAPE with FMA, else PLAIN_SHAPE (for measurements). */
  shape?: KernelShape;
  /** Rows of C per chunk of work (for measurements). */
  chunkRows?: number;
  /** Floats of packed operands and C per job (default JOB_FLOATS; small values test row groups). */
  jobFloats?: number;
}

const roundUp = (value: number, unit: number) => Math.ceil(value / unit) * unit;

/** Where an engine's time went (milliseconds), when `timings` is set: for profiling by hand. */
export interface GemmTimings {
  pack: number;
  kernel: number;
  sink: number;
}

export class WasmGemm {
  readonly shape: KernelShape;
  /** Set to an object to accumulate time per phase into it. */
  timings: GemmTimings | null = null;
  readonly shared: boolean;
  private readonly memory: WebAssembly.Memory;
  private readonly bytes: Uint8Array<ArrayBuffer>;
  private readonly tile: TileFn;
  private readonly helperTarget: number | undefined;
  private readonly chunkRows: number | undefined;
  private readonly jobFloats: number;
  private heap: Float32Array;
  private ctrl: Int32Array;
  private helpers: Promise<number> | null = null;

  private constructor(
    shape: KernelShape,
    memory: WebAssembly.Memory,
    bytes: Uint8Array<ArrayBuffer>,
    shared: boolean,
    options: GemmEngineOptions,
  ) {
    this.shape = shape;
    this.memory = memory;
    this.bytes = bytes;
    this.shared = shared;
    this.helperTarget = options.helpers;
    this.chunkRows = options.chunkRows;
    this.jobFloats = options.jobFloats ?? JOB_FLOATS;
    const module = new WebAssembly.Module(bytes);
    this.tile = (
      new WebAssembly.Instance(module, { env: { memory } }).exports as { tile: TileFn }
    ).tile;
    this.heap = new Float32Array(memory.buffer);
    this.ctrl = new Int32Array(memory.buffer, 0, CTRL_BYTES / 4);
  }

  /** An engine, or null where WebAssembly SIMD is unavailable (the JS loops run then). */
  static create(options: GemmEngineOptions = {}): WasmGemm | null {
    if (typeof WebAssembly === 'undefined') return null;
    const fma = options.fma ?? relaxedSimdSupported();
    const shape = { ...(options.shape ?? (fma ? FMA_SHAPE : PLAIN_SHAPE)), fma };
    const wantShared = (options.threads ?? true) && threadsPossible();
    for (const shared of wantShared ? [true, false] : [false]) {
      try {
        const memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_PAGES, shared });
        const bytes = gemmKernelBytes(shape, { shared, minPages: 1, maxPages: MAX_PAGES });
        if (!WebAssembly.validate(bytes)) continue;
        return new WasmGemm(shape, memory, bytes, shared, options);
      } catch {
        // No SIMD, no shared memory of this size, ...: try the next way, else give up.
      }
    }
    return null;
  }

  /** Bytes of the kernel module this engine runs. */
  moduleBytes(): Uint8Array<ArrayBuffer> {
    return this.bytes;
  }

  /** Helpers that have booted (they join jobs from then on). */
  readyHelpers(): number {
    return this.shared ? Atomics.load(this.ctrl, CTRL.ready) : 0;
  }

  /** Chunks run by helper threads so far. */
  helperChunks(): number {
    return Atomics.load(this.ctrl, CTRL.helperChunks);
  }

  /** Starts the helpers if not yet started; resolves once all of them are ready (for tests). */
  async whenHelpersReady(timeoutMs = 20_000): Promise<number> {
    const started = await this.startPool();
    const deadline = Date.now() + timeoutMs;
    while (this.readyHelpers() < started && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.readyHelpers();
  }

  private startPool(): Promise<number> {
    if (!this.shared) return Promise.resolve(0);
    this.helpers ??= startHelpers(this.memory, this.bytes, this.helperTarget).catch(() => 0);
    return this.helpers;
  }

  /** Makes the memory hold `floats` floats; views are renewed (growth detaches unshared ones). */
  /**
   * Makes the memory hold `floats` floats, or returns false when it cannot grow that far (the
   * caller falls back to the JS loops). Views are renewed: growth detaches unshared buffers.
   */
  private reserve(floats: number): boolean {
    const bytes = floats * 4;
    const have = this.memory.buffer.byteLength;
    if (bytes > have) {
      if (bytes > MAX_PAGES * 65536) return false;
      try {
        this.memory.grow(Math.ceil((bytes - have) / 65536));
      } catch {
        return false;
      }
    }
    if (this.heap.buffer !== this.memory.buffer || this.heap.length * 4 < bytes) {
      this.heap = new Float32Array(this.memory.buffer);
      this.ctrl = new Int32Array(this.memory.buffer, 0, CTRL_BYTES / 4);
    }
    return true;
  }

  /**
   * Computes every batch's C = A @ B and hands it to `sink` in row blocks. Returns false, having
   * written nothing, when the operands do not fit in the memory (B of one batch must).
   */
  product(p: Product): boolean {
    const { batches, m, k, n } = p;
    if (batches === 0 || m === 0 || n === 0) return true;
    const { mr, nr, unroll } = this.shape;
    const mPanels = Math.ceil(m / mr);
    const nPanels = Math.ceil(n / nr);
    const ldc = nPanels * nr;
    const base = CTRL_BYTES / 4;
    if (k === 0) {
      if (!this.reserve(base + m * ldc)) return false;
      this.heap.fill(0, base, base + m * ldc);
      for (let b = 0; b < batches; b++) p.sink(b, 0, m, this.heap, base, ldc);
      return true;
    }
    const kPad = roundUp(k, unroll);
    const aPanel = kPad * mr;
    const bFloats = roundUp(kPad * ldc, 16);
    const cPanel = mr * ldc;
    const macs = batches * m * n * k;
    const helpers = macs >= THREAD_MIN_MACS ? this.readyHelpers() : 0;
    if (macs >= THREAD_MIN_MACS && this.helpers === null) void this.startPool();

    const perBatch = roundUp(mPanels * aPanel, 16) + bFloats + mPanels * cPanel;
    if (perBatch <= this.jobFloats) {
      // Whole batches per job: as many as fit (and as the chunk index allows).
      const group = Math.max(
        1,
        Math.min(batches, Math.floor(this.jobFloats / perBatch), MAX_CHUNKS),
      );
      const aBatch = roundUp(mPanels * aPanel, 16);
      const cBatch = mPanels * cPanel;
      if (!this.reserve(base + group * perBatch)) return false;
      for (let b0 = 0; b0 < batches; b0 += group) {
        const g = Math.min(group, batches - b0);
        const aAt = base;
        const bAt = aAt + g * aBatch;
        const cAt = bAt + g * bFloats;
        let t = this.clock();
        for (let i = 0; i < g; i++) {
          packA(p.a(b0 + i), 0, mPanels, mr, kPad, this.heap, aAt + i * aBatch);
          packB(p.b(b0 + i), nr, kPad, this.heap, bAt + i * bFloats);
        }
        t = this.lap('pack', t);
        this.run(aAt, bAt, cAt, mPanels, nPanels, kPad, ldc, g, aBatch, bFloats, cBatch, helpers);
        t = this.lap('kernel', t);
        for (let i = 0; i < g; i++) p.sink(b0 + i, 0, m, this.heap, cAt + i * cBatch, ldc);
        this.lap('sink', t);
      }
      return true;
    }
    // One batch at a time, its rows in groups: B packed once, A and C a group of panels at a time
    // (the budget is for A and C; B is whole, and a group is never so small that B is re-read
    // for a handful of rows).
    const groupPanels = Math.min(
      mPanels,
      Math.max(MIN_GROUP_PANELS, Math.floor(this.jobFloats / (aPanel + cPanel))),
    );
    const bAt = base;
    const aAt = bAt + bFloats;
    const cAt = aAt + roundUp(groupPanels * aPanel, 16);
    if (!this.reserve(cAt + groupPanels * cPanel)) return false;
    for (let b = 0; b < batches; b++) {
      const a = p.a(b);
      let t = this.clock();
      packB(p.b(b), nr, kPad, this.heap, bAt);
      t = this.lap('pack', t);
      for (let p0 = 0; p0 < mPanels; p0 += groupPanels) {
        const panels = Math.min(groupPanels, mPanels - p0);
        packA(a, p0 * mr, panels, mr, kPad, this.heap, aAt);
        t = this.lap('pack', t);
        this.run(aAt, bAt, cAt, panels, nPanels, kPad, ldc, 1, 0, 0, 0, helpers);
        t = this.lap('kernel', t);
        p.sink(b, p0 * mr, Math.min(panels * mr, m - p0 * mr), this.heap, cAt, ldc);
        t = this.lap('sink', t);
      }
    }
    return true;
  }

  private clock(): number {
    return this.timings ? performance.now() : 0;
  }

  private lap(phase: keyof GemmTimings, since: number): number {
    if (!this.timings) return 0;
    const now = performance.now();
    this.timings[phase] += now - since;
    return now;
  }

  private run(
    aAt: number,
    bAt: number,
    cAt: number,
    mPanels: number,
    nPanels: number,
    k: number,
    ldc: number,
    batches: number,
    aBatch: number,
    bBatch: number,
    cBatch: number,
    helpers: number,
  ): void {
    runJob(
      this.ctrl,
      this.tile,
      {
        a: aAt * 4,
        b: bAt * 4,
        c: cAt * 4,
        mPanels,
        nPanels,
        k,
        ldc: ldc * 4,
        mr: this.shape.mr,
        nr: this.shape.nr,
        batches,
        aBatch: aBatch * 4,
        bBatch: bBatch * 4,
        cBatch: cBatch * 4,
        chunkRows: this.chunkRows,
      },
      helpers,
    );
  }
}

let engine: WasmGemm | null | undefined;

/** The engine the CPU backend uses (created on first use), or null without WebAssembly SIMD. */
export function wasmGemm(): WasmGemm | null {
  if (engine === undefined) engine = WasmGemm.create();
  return engine;
}

/** The default engine's kernel module bytes (for validation tests). */
export function gemmModuleBytes(): Uint8Array<ArrayBuffer> {
  const gemm = wasmGemm();
  return gemm
    ? gemm.moduleBytes()
    : gemmKernelBytes(PLAIN_SHAPE, { shared: false, minPages: 1, maxPages: MAX_PAGES });
}

/** A sink storing rows into a row-major m×n array at `offset` (plus batch × m × n). */
export function rowMajorSink(target: Float32Array, offset: number, m: number, n: number): RowSink {
  return (batch, r0, rows, heap, cAt, ldc) => {
    const to = offset + (batch * m + r0) * n;
    if (ldc === n) {
      target.set(heap.subarray(cAt, cAt + rows * n), to);
      return;
    }
    for (let r = 0; r < rows; r++) {
      target.set(heap.subarray(cAt + r * ldc, cAt + r * ldc + n), to + r * n);
    }
  };
}

/**
 * C = A @ B through the WASM kernel, all row-major: a m×k at aOffset, b k×n at bOffset, c
 * receives m×n at cOffset. Returns false without WebAssembly SIMD (or memory for the operands).
 */
export function gemmWasm(
  a: Float32Array,
  aOffset: number,
  b: Float32Array,
  bOffset: number,
  c: Float32Array,
  cOffset: number,
  m: number,
  k: number,
  n: number,
  gemm: WasmGemm | null = wasmGemm(),
): boolean {
  if (!gemm) return false;
  return gemm.product({
    batches: 1,
    m,
    k,
    n,
    a: () => matrix(a, aOffset, m, k, k, 1),
    b: () => matrix(b, bOffset, k, n, n, 1),
    sink: rowMajorSink(c, cOffset, m, n),
  });
}
