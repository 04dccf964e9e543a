/**
 * Keras's automatic object names: the snake_case class name, then `_1`, `_2`, … for later objects
 * of the same kind (`conv1d`, `conv1d_1`), counted until `tf.keras.backend.clearSession()`.
 */

const counts = new Map<string, number>();

/** The next unused name for `base` ('dense' → 'dense', then 'dense_1', …). */
export function uniqueName(base: string): string {
  const n = counts.get(base) ?? 0;
  counts.set(base, n + 1);
  return n === 0 ? base : `${base}_${n}`;
}

/** Keras's `backend.clear_session()` as far as names go: the counters start again. */
export function resetNames(): void {
  counts.clear();
}
