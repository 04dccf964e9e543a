/** Runs one benchmark case with the engine's timing rules (src/engine/benchmark/timing.ts). */
import { timeRepetitions, type CaseSetup } from '../../src/engine/benchmark/timing';
import type { CaseRequest, CaseResult, EngineName } from './protocol';

export { median, type CaseSetup, type Repetition } from '../../src/engine/benchmark/timing';

export async function timeCase(
  engine: EngineName,
  request: CaseRequest,
  setup: CaseSetup | undefined,
): Promise<CaseResult> {
  const base = { name: request.name, engine, params: request.params, flops: request.flops };
  if (!setup) return { ...base, seconds: [], error: 'not available for this engine' };
  return { ...base, ...(await timeRepetitions(request, request.params, setup)) };
}
