/**
 * Metric reads and resets as events: whoever hosts the engine (the notebook kernel's automatic
 * loop chart) installs one listener; the engine itself knows nothing of outputs. Only the reads a
 * user asks for are reported (Keras's `result()`, torchmetrics' `compute()`), never the fit
 * loop's own, so a fit's metrics do not feed the hand-written loop's chart.
 */
import type { Tensor } from '../tensor';

export interface MetricReadEvent {
  /** The metric's identity (its core, so a reset of the same metric matches the read). */
  metric: object;
  /** The metric's own name (Keras's `name=`), or null when it has none (torchmetrics). */
  name: string | null;
  /** Default name when it has none: its kind, e.g. `acc` or `mean`. */
  kind: string;
  /** Whether its last update saw predictions that require grad (a training step), if known. */
  training: boolean | null;
  /** A fresh 0-d result tensor the listener owns (and disposes), computed now. */
  value(): Tensor;
}

export interface MetricListener {
  onRead(event: MetricReadEvent): void;
  onReset(metric: object): void;
}

let listener: MetricListener | null = null;

/** Installs (or, with null, removes) the one listener. */
export function setMetricListener(next: MetricListener | null): void {
  listener = next;
}

export function notifyMetricRead(event: MetricReadEvent): void {
  listener?.onRead(event);
}

export function notifyMetricReset(metric: object): void {
  listener?.onReset(metric);
}
