/**
 * Our products timed beside the FMA peak (src/engine/benchmark/beside-peak.ts), in the same
 * worker, with the run's own peak case (16 rounds an iteration) and fewer repetitions a side.
 */
import { besidePeak as timeBesidePeak } from '../../src/engine/benchmark/beside-peak';
import { peakFmaCase } from '../../src/engine/benchmark/peak-fma';
import { timeRepetitions } from '../../src/engine/benchmark/timing';
import { casesFor } from './cases';
import type { CaseResult } from './protocol';

const PEAK = { ...casesFor('peak-fma')[0], repeats: 3 };

/** Runs `timeCase` between two timings of the peak kernel; their seconds go in `peakSeconds`. */
export async function besidePeak(timeCase: () => Promise<CaseResult>): Promise<CaseResult> {
  const peak = async () =>
    (await timeRepetitions(PEAK, PEAK.params, peakFmaCase(navigator.gpu))).seconds;
  const { result, peakSeconds } = await timeBesidePeak(peak, timeCase);
  return peakSeconds.length > 0 ? { ...result, peakSeconds, peakFlops: PEAK.flops } : result;
}
