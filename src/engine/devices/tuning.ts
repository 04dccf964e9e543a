/**
 * Tuning now rather than later: a scope in which every shape class a device runs starts its tuning
 * run at its first op ('first-use'), instead of once it has run long enough to pay for it (the
 * notebook's 'amortized' policy). What measures a steady state uses it — the device benchmark,
 * and the warm-ups of `timeit` and `compareDevices` — so no timed run carries a tuning run.
 */
import type { Device } from './device';
import { listDevices } from './registry';

/**
 * Runs `fn` with the devices tuning at first use, waits for the tuning runs it started, and sets
 * the notebook's policy back (also when `fn` throws).
 */
export async function tuningAtFirstUse<T>(
  fn: () => Promise<T>,
  devices: readonly Device[] = listDevices(),
): Promise<T> {
  const tunings = devices.flatMap((d) => d.capability('tuning') ?? []);
  for (const tuning of tunings) tuning.setTuningPolicy('first-use');
  try {
    const result = await fn();
    await Promise.all(tunings.map((tuning) => tuning.tuned()));
    return result;
  } finally {
    for (const tuning of tunings) tuning.setTuningPolicy('amortized');
  }
}
