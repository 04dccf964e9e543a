/** Runs one benchmark case: warm-up, then timed repetitions until the count or the budget ends. */
import type { CaseRequest, CaseResult, EngineName } from './protocol';

/** One repetition: does the work and resolves once the device has finished it. */
export type Repetition = () => Promise<void>;
/** Builds the inputs for a case and returns its repetition (and an optional cleanup). */
export type CaseSetup = (
  params: Record<string, number>,
) => Promise<{ run: Repetition; cleanup?: () => void; note?: string | (() => string) }>;

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
    const seconds: number[] = [];
    for (let i = 0; i < request.repeats; i++) {
      const t0 = performance.now();
      await run();
      seconds.push((performance.now() - t0) / 1000);
      if (performance.now() - started > request.budgetMs) break;
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
