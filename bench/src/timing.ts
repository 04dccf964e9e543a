/** Runs one benchmark case: warm-up, then timed repetitions until the count or the budget ends. */
import type { CaseRequest, CaseResult, EngineName } from './protocol';

/** One repetition: does the work and resolves once the device has finished it. */
export type Repetition = () => Promise<void>;
/** Builds the inputs for a case and returns its repetition (and an optional cleanup). */
export type CaseSetup = (
  params: Record<string, number>,
) => Promise<{ run: Repetition; cleanup?: () => void; note?: string | (() => string) }>;

/** Warm-up time every case gets at least (after its warm-up runs). */
const MIN_WARMUP_MS = 300;
/** Timed runs continue past the requested count until this much time or MAX_REPEATS runs. */
const MIN_TIMED_MS = 300;
const MAX_REPEATS = 15;

export async function timeCase(
  engine: EngineName,
  request: CaseRequest,
  setup: CaseSetup | undefined,
): Promise<CaseResult> {
  const base = { name: request.name, engine, params: request.params, flops: request.flops };
  if (!setup) return { ...base, seconds: [], error: 'not available for this engine' };
  try {
    const { run, cleanup, note } = await setup(request.params);
    const started = performance.now();
    for (let i = 0; i < request.warmup; i++) await run();
    // Millisecond cases keep warming up for a while (JITs tier up, thread pools start: a 256³
    // product on a CPU engine ran 2–4 ms for its first six runs, then 1 ms) and take more timed
    // runs, the same rule for every engine; long cases are unaffected.
    while (performance.now() - started < MIN_WARMUP_MS) await run();
    const seconds: number[] = [];
    const timed = performance.now();
    for (let i = 0; ; i++) {
      const t0 = performance.now();
      await run();
      seconds.push((performance.now() - t0) / 1000);
      const now = performance.now();
      if (now - started > request.budgetMs) break;
      if (i + 1 >= request.repeats && (i + 1 >= MAX_REPEATS || now - timed > MIN_TIMED_MS)) break;
    }
    cleanup?.();
    const text = typeof note === 'function' ? note() : note;
    return { ...base, seconds, ...(text ? { note: text } : {}) };
  } catch (error) {
    return { ...base, seconds: [], error: error instanceof Error ? error.message : String(error) };
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
