/**
 * Row-mode autotuning for reduce and softmax: the first op of a shape class runs its default mode
 * and, on the same queue, times both modes on (a copy of) that op's own input into scratch
 * outputs — timestamped passes, round-robin, best of 3 unless the first round is lopsided; wall
 * clock where the adapter has no timestamp queries — checks that the modes agree, and caches the
 * fastest for the class (autotune.ts).
 */
import { pickFastest, type TrialResult, type TuneKey } from './autotune';
import type { DispatchProfiler } from './command-queue';
import type { KernelContext } from './context';
import { KernelProfiler, type DispatchTiming } from './profiler';
import { ROW_MODES, type RowMode } from './variants';

export type RowFamily = 'reduce' | 'softmax';

/** What decides a row mode: the family, the rows and their length, and contiguity along a row. */
export interface RowClass {
  readonly family: RowFamily;
  readonly rows: number;
  /** Elements per row (the reduced block's size, or softmax's columns). */
  readonly inner: number;
  /** Whether a row's elements are adjacent in memory (stride 1, one run). */
  readonly contiguous: boolean;
}

/**
 * Ops below this many elements run the default mode: both modes take microseconds there, and a
 * tuning run (six timed dispatches and a readback) would cost more than it could ever save.
 */
export const MIN_TUNED_ROW_ELEMENTS = 4096;

const bucket = (size: number): number => 2 ** Math.min(20, Math.ceil(Math.log2(Math.max(1, size))));

/** The class key: `reduce|<rows>x<row length>|contiguous` with power-of-two buckets, etc. */
export function rowModeClassKey(cls: RowClass): TuneKey<RowFamily> {
  const layout = cls.contiguous ? 'contiguous' : 'strided';
  return `${cls.family}|${bucket(cls.rows)}x${bucket(cls.inner)}|${layout}`;
}

/** How the tuner replays one op: its input, output size, and how to record it in a given mode. */
export interface RowTrial {
  /** The buffer the op reads, and the element range [first, first + count) of it that it reads. */
  readonly input: GPUBuffer;
  readonly first: number;
  readonly count: number;
  /** Bytes of each mode's scratch output. */
  readonly outBytes: number;
  /** Output element type: int32 results (indices, integer sums) must match exactly. */
  readonly outType: 'float32' | 'int32';
  /**
   * Records the op in `mode`, reading `input` with every element index lowered by `shift` (the
   * tuner passes a copy of the range starting at `first`), writing into `out` from element 0.
   */
  readonly record: (mode: RowMode, input: GPUBuffer, shift: number, out: GPUBuffer) => void;
}

/**
 * Most elements a tuning run's op reads: bigger ops are timed on their leading sub-block (see
 * `trialShape`). The slower mode can be ~50-100x slower on CPU emulations (softmax of
 * [10000, 100]: ~1 s per run as workgroups, ~25 ms as invocations), so an uncapped run of a huge
 * op would take tens of seconds there; 2^18 elements (1 MB) keep its one slow run near 0.3 s,
 * and still put hundreds of rows, or chunks of a long row, in flight on a GPU.
 */
export const MAX_TRIAL_ELEMENTS = 1 << 18;

/**
 * The leading sub-block of `shape` with at most `cap` elements, cutting the outermost dims first
 * (rows before row length), so a tuning run keeps the op's row length and layout where it can.
 */
export function trialShape(shape: readonly number[], cap = MAX_TRIAL_ELEMENTS): number[] {
  const out = [...shape];
  const count = () => out.reduce((a, b) => a * b, 1);
  for (let d = 0; d < out.length && count() > cap; d++) {
    const others = count() / out[d];
    out[d] = Math.max(1, Math.min(out[d], Math.floor(cap / others)));
  }
  return out;
}

/** The element range a strided view reads: [first, first + count). */
export function extentOf(
  shape: readonly number[],
  strides: readonly number[],
  offset: number,
): { first: number; count: number } {
  let low = offset;
  let high = offset;
  shape.forEach((size, d) => {
    const span = (size - 1) * strides[d];
    if (span < 0) low += span;
    else high += span;
  });
  return { first: low, count: high - low + 1 };
}

/** Runs per mode, round-robin, of which the fastest counts. */
const RUNS = 3;

/**
 * The mode for an op of class `cls`: the tuned choice, else `fallback` — and, once an untuned
 * class of a tunable size is due (autotune.ts: it has read about as many elements as its tuning
 * run would), a tuning run is recorded before the op itself, so it reads the op's input as it was.
 */
export function chooseRowMode(
  ctx: KernelContext,
  cls: RowClass,
  fallback: RowMode,
  trial: () => RowTrial,
): RowMode {
  if (cls.rows * cls.inner < MIN_TUNED_ROW_ELEMENTS) return fallback;
  // An op of real size: a queued tuning slice may follow it (tune-slices.ts).
  if (ctx.autotune) ctx.slices.afterUserOp();
  const key = rowModeClassKey(cls);
  const chosen = ctx.tuner.get(key);
  if (chosen) return chosen;
  const elements = cls.rows * cls.inner;
  const trialElements = ROW_MODES.length * RUNS * Math.min(elements, MAX_TRIAL_ELEMENTS);
  if (ctx.autotune && ctx.tuner.due(key, elements, trialElements)) {
    const job = tuneRowMode(ctx, key, trial());
    if (job) ctx.tuner.track(key, job);
  }
  return fallback;
}

/** Passes on a KernelProfiler's timestamps, remembering which mode each timed dispatch ran. */
class TrialProfiler implements DispatchProfiler {
  readonly inner: KernelProfiler;
  /** The mode (index) being recorded now. */
  trial = 0;
  /** Mode of each timed dispatch, in the order `collect` returns them. */
  readonly owners: number[] = [];

  constructor(device: GPUDevice) {
    this.inner = new KernelProfiler(device);
  }

  timestampWrites(label: string): GPUComputePassTimestampWrites | null {
    const writes = this.inner.timestampWrites(label);
    if (writes) this.owners.push(this.trial);
    return writes;
  }

  resolve(encoder: GPUCommandEncoder): void {
    this.inner.resolve(encoder);
  }
}

/** Output bytes compared between modes (a prefix: enough to catch a broken mode, cheap to read). */
const CHECKED_BYTES = 1 << 18;

/** GPU nanoseconds of each mode (all its dispatches), Infinity for one with no timed dispatch. */
function trialTimes(timings: readonly DispatchTiming[], owners: readonly number[], count: number) {
  const ns = new Array<number>(count).fill(0);
  const timed = new Array<boolean>(count).fill(false);
  timings.forEach((t, j) => {
    const owner = owners[j];
    if (owner === undefined) return;
    ns[owner] += t.ns;
    timed[owner] = true;
  });
  return ns.map((v, i) => (timed[i] ? v : Infinity));
}

/**
 * Whether two modes' outputs agree: integers exactly, floats within rounding of a different
 * summation order (relative to the values and to the largest output, since sums may cancel).
 */
export function outputsAgree(
  a: Float32Array | Int32Array,
  b: Float32Array | Int32Array,
  outType: 'float32' | 'int32',
): boolean {
  if (outType === 'int32') return a.every((v, i) => v === b[i]);
  let scale = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isFinite(a[i])) scale = Math.max(scale, Math.abs(a[i]));
  }
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (Object.is(x, y) || x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
    if (!(Math.abs(x - y) <= 1e-3 * (Math.abs(x) + Math.abs(y) + scale))) return false;
  }
  return true;
}

/** Raised when a round cannot be timed now (someone else's profiler is attached): retry later. */
class NotNow extends Error {}

/**
 * GPU nanoseconds of one round (each mode once) recorded now in timestamped passes; throws
 * NotNow when another profiler is attached to the queue.
 */
async function timestampRound(
  ctx: KernelContext,
  record: (mode: RowMode, i: number) => void,
): Promise<number[]> {
  const { queue } = ctx;
  if (queue.profiler) throw new NotNow();
  const profiler = new TrialProfiler(ctx.device);
  queue.flush();
  queue.profiler = profiler;
  try {
    ROW_MODES.forEach((mode, i) => {
      profiler.trial = i;
      record(mode, i);
    });
  } finally {
    queue.flush();
    queue.profiler = null;
  }
  await queue.settled();
  return trialTimes(await profiler.inner.collect(), profiler.owners, ROW_MODES.length);
}

/** Wall-clock nanoseconds of one round, each mode alone on the queue (noisier, still measured). */
async function wallClockRound(
  ctx: KernelContext,
  record: (mode: RowMode, i: number) => void,
): Promise<number[]> {
  const { device, queue } = ctx;
  const times: number[] = [];
  for (const [i, mode] of ROW_MODES.entries()) {
    queue.flush();
    await queue.idle();
    await device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    record(mode, i);
    queue.flush();
    await device.queue.onSubmittedWorkDone();
    times.push((performance.now() - t0) * 1e6);
  }
  return times;
}

/**
 * After the first round, a gap this large on a run this long ends the tuning run: the losing mode
 * can be 100x slower (workgroups on CPU emulations), so rerunning it would cost seconds, and such
 * a gap is outside run-to-run noise. Smaller gaps (a CPU emulation under load has shown one run 7x
 * slower than usual) and cheap runs (every run on a GPU) get the full best of `RUNS`.
 */
const DECISIVE_RATIO = 4;
const DECISIVE_NS = 20e6;

/** Whether the first round settles the choice (see DECISIVE_RATIO). */
function decisive(times: readonly number[]): boolean {
  const [fast, slow] = [Math.min(...times), Math.max(...times)];
  return Number.isFinite(slow) && slow >= DECISIVE_NS && slow >= DECISIVE_RATIO * fast;
}

/** Largest input range (elements) a run copies; beyond it (a very gappy view) the class isn't tuned. */
const MAX_COPIED_ELEMENTS = 1 << 22;

/**
 * Times both modes of one op and records the fastest for `key` (or abandons the class for this
 * session if the modes disagree or could not be timed). The range of the input the run reads is
 * copied now, in queue order before the op itself, since the rounds are recorded later (after
 * earlier rounds' timings are read back), when the op's input may have been freed and reused.
 * Returns null (try again later) while another profiler is attached to the queue.
 */
export function tuneRowMode(
  ctx: KernelContext,
  key: string,
  trial: RowTrial,
): Promise<void> | null {
  const { device, queue } = ctx;
  if (queue.profiler) return null;
  if (trial.count > MAX_COPIED_ELEMENTS) {
    ctx.tuner.abandon(key);
    return null;
  }
  const copy = ctx.pool.acquire(trial.count * 4);
  queue.copy(trial.input, trial.first * 4, copy, 0, trial.count * 4);
  const modes = ROW_MODES;
  const outs = modes.map(() => ctx.pool.acquire(trial.outBytes));
  const checked = Math.min(trial.outBytes, CHECKED_BYTES);
  const readbacks = modes.map(() =>
    device.createBuffer({
      size: checked,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }),
  );
  const record = (mode: RowMode, i: number) => trial.record(mode, copy, trial.first, outs[i]);
  const round = KernelProfiler.supported(device) ? timestampRound : wallClockRound;
  const release = () => {
    for (const buffer of [copy, ...outs]) ctx.pool.recycle(buffer);
    for (const buffer of readbacks) buffer.destroy();
  };

  const measure = async (): Promise<number[]> => {
    const times = modes.map(() => Infinity);
    // Rounds run each mode once (round-robin), so a burst of load from elsewhere hits one run of
    // each, not all of one; each mode's best run counts.
    for (let r = 0; r < RUNS; r++) {
      (await round(ctx, record)).forEach((ns, i) => (times[i] = Math.min(times[i], ns)));
      if (r === 0 && decisive(times)) break;
    }
    return times;
  };
  const check = async (): Promise<boolean> => {
    outs.forEach((out, i) => queue.copy(out, 0, readbacks[i], 0, checked));
    queue.flush();
    await queue.settled();
    const got: (Float32Array | Int32Array)[] = [];
    for (const readback of readbacks) {
      await readback.mapAsync(GPUMapMode.READ);
      const bytes = readback.getMappedRange().slice(0);
      readback.unmap();
      got.push(trial.outType === 'int32' ? new Int32Array(bytes) : new Float32Array(bytes));
    }
    return got.every((g) => outputsAgree(got[0], g, trial.outType));
  };
  const choose = async (times: readonly number[]) => {
    const agree = await check();
    const results: TrialResult<RowMode>[] = modes.map((variant, i) => ({
      variant,
      ns: times[i],
      correct: agree,
    }));
    ctx.tuneLog.push({ key, results });
    const best = pickFastest(results);
    if (best) ctx.tuner.choose(key, best);
    else ctx.tuner.abandon(key);
  };
  if (ctx.tuner.sliced) {
    // Between user ops, a mode's run at a time (tune-slices.ts), on the copy taken now.
    ctx.slices.enqueue({
      key,
      count: modes.length,
      record: (i) => record(modes[i], i),
      clock: KernelProfiler.supported(device) ? 'gpu' : 'wall',
      finish: async (times) => {
        try {
          await choose(times);
        } catch {
          ctx.tuner.abandon(key);
        } finally {
          release();
        }
      },
      drop: release,
    });
    return null;
  }
  return (async () => {
    try {
      await choose(await measure());
    } catch (error) {
      // Someone started a profile meanwhile: the next op of the class tries again. Anything else
      // (a lost device, a failed readback) keeps the default rather than retrying every op.
      if (!(error instanceof NotNow)) ctx.tuner.abandon(key);
    } finally {
      release();
    }
  })();
}
