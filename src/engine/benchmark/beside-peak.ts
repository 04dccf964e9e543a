/**
 * A case timed between two timings of the FMA peak. On a shared host the peak kernel read 5.9 to
 * 9.6 GFLOPS in runs minutes apart while a 1024³ product held at 3.2–3.3 (bench/NOTES.md item 27):
 * a product's "% of peak" against a peak read at the start moved with the host, not the product.
 * Readings taken right before and right after it compare the same minutes. Used by `npm run bench`
 * (bench/src/adjacent-peak.ts) and by the app's "benchmark this device" (device-benchmark.ts).
 */

export interface BesidePeak<T> {
  result: T;
  /** The peak kernel's seconds a run, from the timings before and after the case, in order. */
  peakSeconds: number[];
}

export async function besidePeak<T>(
  timePeak: () => Promise<number[]>,
  timeCase: () => Promise<T>,
): Promise<BesidePeak<T>> {
  const before = await timePeak();
  const result = await timeCase();
  const after = await timePeak();
  return { result, peakSeconds: [...before, ...after] };
}
