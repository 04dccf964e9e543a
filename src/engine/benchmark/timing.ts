/**
 * Times one benchmark case: warm-ups, then timed repetitions until the count or the budget ends.
 * The one copy used by `npm run bench` (bench/src) and by the app's "benchmark this device".
 */

/** One repetition: does the work and resolves once the device has finished it. */
export type Repetition = () => Promise<void>;

/** What a case's setup returns: its repetition, an optional cleanup and a note for the report. */
export interface PreparedCase {
  run: Repetition;
  cleanup?: () => void;
  note?: string | (() => string);
}

/** Builds the inputs for a case and returns its repetition. */
export type CaseSetup = (params: Record<string, number>) => Promise<PreparedCase>;

export interface CaseTiming {
  warmup: number;
  repeats: number;
  /** Stop repeating once this many milliseconds were spent (slow engines on big shapes). */
  budgetMs: number;
}

/** How long short cases keep warming up and being timed (the same rule for every engine). */
export interface TimingRules {
  /** Warm-up time every case gets at least (after its warm-up runs). */
  minWarmupMs: number;
  /** Timed runs continue past the requested count until this much time or `maxRepeats` runs. */
  minTimedMs: number;
  maxRepeats: number;
}

export const BENCH_RULES: TimingRules = { minWarmupMs: 300, minTimedMs: 300, maxRepeats: 15 };

export interface TimedCase {
  /** Seconds per repetition, one entry per timed repetition (empty on error). */
  seconds: number[];
  note?: string;
  error?: string;
}

export async function timeRepetitions(
  timing: CaseTiming,
  params: Record<string, number>,
  setup: CaseSetup,
  rules: TimingRules = BENCH_RULES,
  now: () => number = () => performance.now(),
): Promise<TimedCase> {
  try {
    const { run, cleanup, note } = await setup(params);
    const started = now();
    for (let i = 0; i < timing.warmup; i++) await run();
    // Millisecond cases keep warming up for a while (JITs tier up, thread pools start: a 256³
    // product on a CPU engine ran 2–4 ms for its first six runs, then 1 ms) and take more timed
    // runs; long cases are unaffected.
    while (now() - started < rules.minWarmupMs) await run();
    const seconds: number[] = [];
    const timed = now();
    for (let i = 0; ; i++) {
      const t0 = now();
      await run();
      seconds.push((now() - t0) / 1000);
      const end = now();
      if (end - started > timing.budgetMs) break;
      if (
        i + 1 >= timing.repeats &&
        (i + 1 >= rules.maxRepeats || end - timed > rules.minTimedMs)
      ) {
        break;
      }
    }
    cleanup?.();
    const text = typeof note === 'function' ? note() : note;
    return { seconds, ...(text ? { note: text } : {}) };
  } catch (error) {
    return { seconds: [], error: error instanceof Error ? error.message : String(error) };
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
