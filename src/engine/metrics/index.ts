/** Metrics with on-device state: the core, accuracy (multiclass/top-k/binary) and a running mean. */
export { Metric, MetricState } from './metric';
export { AccuracyCore, type AccuracyOptions } from './accuracy';
export { MeanCore } from './mean';
export {
  notifyMetricRead,
  notifyMetricReset,
  setMetricListener,
  type MetricListener,
  type MetricReadEvent,
} from './reads';
