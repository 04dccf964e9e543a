/**
 * The engine flag that turns element-wise fusion on or off (`setFusion`), and the recorders that
 * hold unrun work, so turning fusion off (or a test switching paths) runs what they hold first.
 */

/** Something that holds recorded kernels and can run them now. */
export interface Flushable {
  flush(): void;
}

// On by default: the engine's test suites pass fused (fusion.test.ts compares it with unfused).
let enabled = true;
const holding = new Set<Flushable>();

/** Whether element-wise chains are recorded and run fused (backends/fusion/fusing-backend.ts). */
export function fusionEnabled(): boolean {
  return enabled;
}

/** Turns fusion on or off for every device; work recorded so far runs first. */
export function setFusion(on: boolean): void {
  if (on === enabled) return;
  flushAllFusion();
  enabled = on;
}

/** Runs every recorder's held work (a recorder registers while it holds some). */
export function flushAllFusion(): void {
  for (const recorder of [...holding]) recorder.flush();
}

/** @internal Called by a recorder when it starts and stops holding work. */
export function markHolding(recorder: Flushable, holds: boolean): void {
  if (holds) holding.add(recorder);
  else holding.delete(recorder);
}
