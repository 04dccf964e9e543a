/** The adapter's measured FMA peak: the yardstick for "fraction of peak" in RESULTS.md. */
import { peakFmaCase } from '../../../src/engine/benchmark/peak-fma';
import type { CaseSetup } from '../timing';

export async function peakCases(): Promise<Record<string, CaseSetup>> {
  if (!(await navigator.gpu.requestAdapter())) return {};
  const setup = peakFmaCase(navigator.gpu);
  return { 'peak-fma': setup, 'peak-fma-1-round': setup };
}
