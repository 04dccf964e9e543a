/**
 * Times a tuning run's candidates: each candidate's recording (one or more dispatches) is run a
 * few times, round-robin, so a burst of load from elsewhere hits one run of each, not all of one.
 * With timestamp queries every dispatch is timed on the GPU; without them each run is wall-clocked
 * on a submit of its own (noisier, still a measurement). Also the reading back of the candidates'
 * outputs for checking, and the whole of a tuning run built from both (`tuneCandidates`). Shared
 * by the matmul tuner and the operand-repacking tuner.
 */
import { pickFastest, type ChoiceOf, type TrialResult } from './autotune';
import type { KernelContext } from './context';
import { KernelProfiler } from './profiler';

/** Runs of each candidate in a tuning run, of which the fastest counts. */
export const TRIAL_RUNS = 3;

/**
 * Records candidate `i` with `record(i)` `runs` times and resolves to each candidate's best time in
 * nanoseconds (Infinity when a run went untimed). Returns null (try again later) while another
 * profiler is attached to the queue. Outputs stay in the candidates' buffers for checking.
 */
export function timeCandidates(
  ctx: KernelContext,
  count: number,
  record: (i: number) => void,
  {
    runs = TRIAL_RUNS,
    clock = 'gpu',
  }: {
    runs?: number;
    /** 'wall' when the runs include work outside compute passes (buffer copies). */
    clock?: 'gpu' | 'wall';
  } = {},
): Promise<number[]> | null {
  const { device, queue } = ctx;
  if (queue.profiler) return null;
  if (clock === 'wall' || !KernelProfiler.supported(device)) {
    return wallClock(ctx, count, record, runs);
  }
  const profiler = new KernelProfiler(device);
  const spans: { candidate: number; first: number; end: number }[] = [];
  queue.flush();
  queue.profiler = profiler;
  try {
    for (let r = 0; r < runs; r++) {
      for (let i = 0; i < count; i++) {
        const first = profiler.timed;
        record(i);
        spans.push({ candidate: i, first, end: profiler.timed });
      }
    }
  } finally {
    queue.flush();
    queue.profiler = null;
  }
  return (async () => {
    await queue.settled();
    const timings = await profiler.collect();
    return Array.from({ length: count }, (_, i) => {
      // A run with no timed dispatch (none recorded, or beyond what came back) is no run.
      const mine = spans
        .filter((s) => s.candidate === i && s.end > s.first && s.end <= timings.length)
        .map((span) => timings.slice(span.first, span.end).reduce((t, d) => t + d.ns, 0));
      return mine.length === runs ? Math.min(...mine) : Infinity;
    });
  })();
}

async function wallClock(
  ctx: KernelContext,
  count: number,
  record: (i: number) => void,
  runs: number,
): Promise<number[]> {
  const { device, queue } = ctx;
  const best = new Array<number>(count).fill(Infinity);
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < count; i++) {
      queue.flush();
      await device.queue.onSubmittedWorkDone();
      const t0 = performance.now();
      record(i);
      queue.flush();
      await device.queue.onSubmittedWorkDone();
      best[i] = Math.min(best[i], (performance.now() - t0) * 1e6);
    }
  }
  return best;
}

/**
 * The candidates' outputs (float32, `bytes` each) read back to the host, once the copies into
 * the readbacks were submitted: a flush may wait behind host data still on its way.
 */
export async function readOutputs(
  ctx: KernelContext,
  outs: readonly GPUBuffer[],
  bytes: number,
): Promise<Float32Array[]> {
  const { device, queue } = ctx;
  const readbacks = outs.map(() =>
    device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
  );
  try {
    outs.forEach((out, i) => queue.copy(out, 0, readbacks[i], 0, bytes));
    queue.flush();
    await queue.settled();
    const values: Float32Array[] = [];
    for (const readback of readbacks) {
      await readback.mapAsync(GPUMapMode.READ);
      values.push(new Float32Array(readback.getMappedRange().slice(0)));
      readback.unmap();
    }
    return values;
  } finally {
    for (const readback of readbacks) readback.destroy();
  }
}

/** How a tuning run records, times and checks its candidates (see tuneCandidates). */
export interface TuningRun<V extends string> {
  /** Bytes each candidate writes into its own scratch output. */
  readonly outBytes: number;
  readonly record: (candidate: V, out: GPUBuffer) => void;
  /** Whether candidate i's output (among all of them, read back) is right. */
  readonly correct: (outputs: readonly Float32Array[], i: number) => boolean;
  /** Buffers of the run's own (its proxy operands), given back to the pool with the outputs. */
  readonly scratch?: readonly GPUBuffer[];
  readonly clock?: 'gpu' | 'wall';
  /**
   * Timed whole, in one batch, even under the sliced policy: the candidates read the op's own
   * operands, which later ops may overwrite before the slices come.
   */
  readonly whole?: boolean;
}

/**
 * One tuning run: every candidate recorded into a scratch output, timed, read back and checked,
 * the results logged, and the fastest correct candidate chosen for `key`. Under the sliced policy
 * (autotune.ts) the run is queued and timed a slice at a time between user ops (tune-slices.ts),
 * and null is returned; otherwise every candidate is timed now (timeCandidates) and the returned
 * job chooses. Also null (try again later, nothing recorded) while another profiler is attached.
 */
export function tuneCandidates<K extends string>(
  ctx: KernelContext,
  key: K,
  candidates: readonly ChoiceOf<K>[],
  run: TuningRun<ChoiceOf<K>>,
): Promise<void> | null {
  const outs = candidates.map(() => ctx.pool.acquire(run.outBytes));
  const release = () => {
    for (const buffer of [...(run.scratch ?? []), ...outs]) ctx.pool.recycle(buffer);
  };
  const record = (i: number) => run.record(candidates[i], outs[i]);
  const finish = async (times: readonly number[]) => {
    try {
      // After the runs: without timestamps they are recorded as the timing goes.
      const outputs = await readOutputs(ctx, outs, run.outBytes);
      const results: TrialResult<ChoiceOf<K>>[] = candidates.map((variant, i) => ({
        variant,
        ns: times[i],
        correct: run.correct(outputs, i),
      }));
      ctx.tuneLog.push({ key, results });
      const best = pickFastest(results);
      if (best) ctx.tuner.choose(key, best);
    } finally {
      release();
    }
  };
  if (ctx.tuner.sliced && !run.whole) {
    const count = candidates.length;
    ctx.slices.enqueue({ key, count, record, clock: run.clock, finish, drop: release });
    return null;
  }
  const timing = timeCandidates(ctx, candidates.length, record, { clock: run.clock });
  if (!timing) {
    release();
    return null;
  }
  return timing.then(finish, (error: unknown) => {
    release();
    throw error;
  });
}
