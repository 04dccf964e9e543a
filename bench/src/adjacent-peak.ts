/**
 * The FMA peak timed right before and right after a case, in the same worker. On a shared host
 * the peak kernel alone read 473–728 ms in runs minutes apart (2026-11-26, item 27 of
 * bench/NOTES.md), so a case's "% of peak" against a peak taken at the start of the run moved by
 * as much; two readings beside the case compare the same minutes.
 */
import { peakFmaCase } from '../../src/engine/benchmark/peak-fma';
import { timeRepetitions } from '../../src/engine/benchmark/timing';
import { casesFor } from './cases';
import type { CaseResult } from './protocol';

/** The run's own peak case (16 rounds an iteration), with fewer repetitions on each side. */
const PEAK = { ...casesFor('peak-fma')[0], repeats: 3 };

/** Runs `timeCase` between two timings of the peak kernel; their seconds go in `peakSeconds`. */
export async function besidePeak(timeCase: () => Promise<CaseResult>): Promise<CaseResult> {
  const peak = async () =>
    (await timeRepetitions(PEAK, PEAK.params, peakFmaCase(navigator.gpu))).seconds;
  const before = await peak();
  const result = await timeCase();
  const after = await peak();
  const peakSeconds = [...before, ...after];
  return peakSeconds.length > 0 ? { ...result, peakSeconds, peakFlops: PEAK.flops } : result;
}
