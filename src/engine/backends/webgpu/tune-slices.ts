/**
 * Tuning in slices (the notebook's 'amortized' policy): a class's tuning run is queued rather than
 * recorded at once, and timed one slice at a time — one candidate, one run; or, first, its
 * pipeline's compile, started asynchronously — right after a user op of tunable size, and only
 * while the time slices have cost stays under a fraction of the wall time the user's own work has
 * taken; or after a pause with no user op (idle time). So no user op waits behind more than one
 * slice, and a slow adapter pays at most that fraction of the user's time, within a budget per
 * class and per session; past a budget the class keeps its default. Each candidate's best run counts; once every candidate has its runs, the run's own
 * `finish` checks the outputs and chooses (trial-timing.ts, rowmode-tune.ts), so the faster
 * variant is swapped in as soon as it is known. One scheduler serves every tuned family.
 */
import type { KernelContext } from './context';
import { PipelinePending } from './pipeline-cache';
import { timeCandidates, TRIAL_RUNS } from './trial-timing';

/** A tuning run to be timed in slices: its candidates' recordings and what to do with the times. */
export interface SlicedRun {
  readonly key: string;
  /** Number of candidates. */
  readonly count: number;
  /** Records candidate `i` once into its own scratch output. */
  readonly record: (i: number) => void;
  /** 'wall' when a candidate's run includes work outside compute passes (buffer copies). */
  readonly clock?: 'gpu' | 'wall';
  /** With each candidate's best time (Infinity: untimed): checks, chooses, releases its scratch. */
  readonly finish: (times: readonly number[]) => Promise<void>;
  /** Releases the run's scratch without choosing (its budget is spent, or it was cancelled). */
  readonly drop: () => void;
}

/**
 * Share of the user's wall time that slices may take (tuning costs at most 1/4 more while it
 * lasts): small enough that a timed loop barely notices, large enough that a class whose run is a
 * few seconds is tuned within a minute of use.
 */
export const SLICE_SHARE = 1 / 4;

/**
 * Most slice time one class may take, in ms. A tuning run on a GPU takes milliseconds; on a CPU
 * emulation a 512³ proxy's 17 candidates take 0.2–1 s a run, so a full run is ~10–20 s there
 * (pruning below halves it). 15 s of slices is 60 s of the user's own work at SLICE_SHARE: a class
 * used less than that on such an adapter keeps its default rather than pay more to tune.
 */
export const CLASS_BUDGET_MS = 15_000;

/** Most slice time a session (this backend) takes over all classes, in ms. */
export const SESSION_BUDGET_MS = 60_000;

/**
 * Credit (ms of slices) that idle or long user work can bank: bounds how many slices follow one
 * another back to back after a pause.
 */
const MAX_CREDIT_MS = 2_000;

/**
 * With runs queued and no user op for this long (ms), a slice runs anyway: idle time (between
 * cells, while the user reads) delays nobody, so it is not paid from the credit.
 */
export const IDLE_MS = 300;

/**
 * After a candidate's first run, later runs go only to candidates within this factor of the
 * fastest so far: a loser by 2x is not a winner by noise, and rerunning it would double the cost.
 */
const PRUNE_RATIO = 2;

interface Queued {
  readonly run: SlicedRun;
  /** Best time of each candidate so far (ns). */
  readonly best: number[];
  /** Runs each candidate has had. */
  readonly runs: number[];
  /** Slice time charged to the class (ms). */
  spent: number;
  cancelled: boolean;
}

export class TuneSlices {
  /** Share of the user's wall time slices may take (tests raise it to tune in fewer ops). */
  share = SLICE_SHARE;
  classBudgetMs = CLASS_BUDGET_MS;
  sessionBudgetMs = SESSION_BUDGET_MS;
  /** See IDLE_MS (tests that count slices per op turn it off with Infinity). */
  idleMs = IDLE_MS;
  private idleTimer: unknown = null;
  private readonly queue: Queued[] = [];
  /** Slices recorded since the backend started (for tests and reports). */
  slices = 0;
  /** Slices put off because a candidate's pipeline was still compiling. */
  compiles = 0;
  /** Slice time charged over all classes (ms). */
  spent = 0;
  private credit = 0;
  /** When credit was last accrued (ms), or null before the first user op. */
  private last: number | null = null;
  private busy = false;
  private scheduled = false;

  constructor(private readonly ctx: KernelContext) {}

  /** Whether `key` has a run waiting for slices. */
  has(key: string): boolean {
    return this.queue.some((q) => q.run.key === key);
  }

  /** Queues a run; its slices start after the next user ops. */
  enqueue(run: SlicedRun): void {
    if (this.spent >= this.sessionBudgetMs) {
      run.drop();
      this.ctx.tuner.overBudget(run.key);
      return;
    }
    const q: Queued = {
      run,
      best: new Array<number>(run.count).fill(Infinity),
      runs: new Array<number>(run.count).fill(0),
      spent: 0,
      cancelled: false,
    };
    this.queue.push(q);
    this.ctx.tuner.enqueued(run.key, () => this.cancel(q));
    this.armIdle();
  }

  /**
   * Runs a slice once there has been no user op (no dispatch recorded) for `idleMs` after the
   * GPU finished its work — not while the user waits on a read, whose next op would queue behind
   * the slice. Re-arms while the user is busy, stops once nothing is queued; the timer does not
   * keep Node alive.
   */
  private armIdle(gpuIdle = false): void {
    if (this.idleTimer !== null || this.queue.length === 0 || !Number.isFinite(this.idleMs)) return;
    const mark = this.ctx.queue.dispatches;
    const timer: unknown = setTimeout(() => {
      const quiet = this.ctx.queue.dispatches === mark && !this.busy && !this.scheduled;
      if (!quiet) {
        this.idleTimer = null;
        this.armIdle();
      } else if (!gpuIdle) {
        // Count the pause again from when the GPU is done (the timer stays set meanwhile).
        const rearm = () => {
          this.idleTimer = null;
          this.armIdle(true);
        };
        this.ctx.device.queue.onSubmittedWorkDone().then(rearm, () => (this.idleTimer = null));
      } else {
        this.idleTimer = null;
        this.ctx.tuner.background(this.pump(true));
      }
    }, this.idleMs);
    (timer as { unref?: () => void }).unref?.();
    this.idleTimer = timer;
  }

  /**
   * A user op of tunable size was just recorded (called before it is, from the kernel's choice):
   * after the current synchronous work, a slice may follow it.
   */
  afterUserOp(): void {
    const now = performance.now();
    if (this.last !== null) {
      this.credit = Math.min(MAX_CREDIT_MS, this.credit + this.share * (now - this.last));
    }
    this.last = now;
    if (this.scheduled || this.busy || this.queue.length === 0) return;
    this.scheduled = true;
    // A microtask runs once the user's synchronous code (the op itself) is recorded; tracked, so
    // `tuned()` waits for the slice it starts.
    this.ctx.tuner.background(
      Promise.resolve().then(() => {
        this.scheduled = false;
        return this.pump();
      }),
    );
  }

  /** Records the next slice if there is credit for it, and waits for its time. */
  private async pump(idle = false): Promise<void> {
    try {
      await this.slice(idle);
    } finally {
      // Whatever happened (a slice, a compile, no credit, someone's profile attached).
      this.armIdle();
    }
  }

  private async slice(idle: boolean): Promise<void> {
    if (this.busy || (!idle && this.credit <= 0)) return;
    const next = this.next();
    if (!next) return;
    const [q, i] = next;
    const t0 = performance.now();
    let timing: Promise<number[]> | null;
    try {
      // A candidate's pipelines compile off this thread: its slice runs at a later op.
      timing = this.ctx.pipelines.withoutBlocking(() =>
        timeCandidates(this.ctx, 1, () => q.run.record(i), { runs: 1, clock: q.run.clock }),
      );
    } catch (error) {
      if (error instanceof PipelinePending) {
        await this.compiled(q, error.ready, t0, idle);
        return;
      }
      // The candidate cannot be recorded (its kernel failed to compile): it is out of the run.
      q.runs[i] = TRIAL_RUNS;
      await this.settle(q);
      return;
    }
    // What recording took on this thread (encoding, creating bind groups): charged too.
    const recordMs = performance.now() - t0;
    if (!timing) return; // someone else's profile is attached: a later op tries again
    this.slices++;
    this.busy = true;
    try {
      let ns: number;
      try {
        [ns] = await timing;
      } catch {
        // A lost device or a failed readback: the class keeps its default, untried again.
        this.remove(q);
        q.run.drop();
        this.ctx.tuner.abandon(q.run.key);
        return;
      }
      this.charge(q, recordMs + (Number.isFinite(ns) ? ns / 1e6 : 0), idle);
      q.runs[i]++;
      q.best[i] = Math.min(q.best[i], ns);
      if (!q.cancelled) await this.settle(q);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Waits for a candidate's pipeline to compile (no slice meanwhile) and charges the wait like a
   * slice: on a CPU emulation a compile takes 1–2.5 s, more than timing the candidate, and Dawn in
   * Node spends it on this thread.
   */
  private async compiled(q: Queued, ready: Promise<void>, t0: number, idle: boolean) {
    this.compiles++;
    this.busy = true;
    try {
      await ready;
      this.charge(q, performance.now() - t0, idle);
      if (!q.cancelled) await this.settle(q);
    } finally {
      this.busy = false;
    }
  }

  /** Charges a slice to the budgets, and to the credit unless it ran in idle time. */
  private charge(q: Queued, ms: number, idle: boolean): void {
    if (!idle) this.credit -= ms;
    this.spent += ms;
    q.spent += ms;
  }

  /** Finishes a run once every candidate has its runs, or drops it past a budget. */
  private async settle(q: Queued): Promise<void> {
    const over = q.spent >= this.classBudgetMs || this.spent >= this.sessionBudgetMs;
    if (over) {
      this.remove(q);
      q.run.drop();
      this.ctx.tuner.overBudget(q.run.key);
      if (this.spent >= this.sessionBudgetMs) {
        for (const other of [...this.queue]) {
          this.cancel(other);
          this.ctx.tuner.overBudget(other.run.key);
        }
      }
      return;
    }
    if (this.candidateOf(q) !== null) return;
    this.remove(q);
    await q.run.finish(q.best);
  }

  /** The run and candidate of the next slice: the oldest run first, its candidates round-robin. */
  private next(): [Queued, number] | null {
    for (const q of this.queue) {
      const i = this.candidateOf(q);
      if (i !== null) return [q, i];
    }
    return null;
  }

  /** The candidate of a run that needs a run next, or null once all have theirs. */
  private candidateOf(q: Queued): number | null {
    const fastest = Math.min(...q.best);
    for (let round = 0; round < TRIAL_RUNS; round++) {
      for (let i = 0; i < q.run.count; i++) {
        if (q.runs[i] > round) continue;
        // A candidate that failed to time, or lost by PRUNE_RATIO, gets no more runs.
        if (round > 0 && !(q.best[i] <= PRUNE_RATIO * fastest)) continue;
        return i;
      }
    }
    return null;
  }

  private remove(q: Queued): void {
    const at = this.queue.indexOf(q);
    if (at >= 0) this.queue.splice(at, 1);
    this.ctx.tuner.dequeued(q.run.key);
  }

  /** Drops a queued run (the policy turned to 'first-use', or the session budget is spent). */
  private cancel(q: Queued): void {
    if (q.cancelled) return;
    q.cancelled = true;
    this.remove(q);
    q.run.drop();
  }
}
