/**
 * The rich-output names every cell sees — `display` with handles, `Chart`, `metricsLogger`,
 * `tqdm`, `progress`, `Progbar`, `plotMetric`, `imageGrid`, `timeit`, `compareDevices`,
 * `profile`, `autoChart` — and the hooks that make a fit cell show its live chart and progress
 * bars, and a hand-written loop its automatic chart.
 */
import { setMetricListener } from '../../engine/metrics';
import { setDefaultObservers } from '../../engine/training';
import { Tensor } from '../../engine';
import { registerDisplayConverter } from '../display';
import type { OutputSink } from '../output-sink';
import { AutoChart, setEpochLogListener } from './auto-chart';
import { Chart, type ChartOptions } from './chart';
import { createFitObserver } from './fit-observer';
import { ImageGrid, imageGrid, type ImageGridOptions } from './image-grid';
import {
  displayValue,
  isLiveOutput,
  markShown,
  setAutoDisplay,
  showBundle,
  type DisplayHandle,
  type LiveOutput,
  type SinkSource,
} from './live-display';
import { metricChart } from './plot-metric';
import { profileBundle, runProfile, type ProfileOptions } from './profile';
import { Progbar, progress, ProgressBar, setPostfixListener, tqdm } from './progress';
import {
  emulationNote,
  measure,
  summarize,
  timeDevices,
  timingChart,
  timingLine,
  type CompareOptions,
  type DeviceTiming,
  type TimeOptions,
} from './timing';

registerDisplayConverter((value) => (isLiveOutput(value) ? value.toBundle() : null));
registerDisplayConverter((value) => (value instanceof ImageGrid ? value.toBundle() : null));

const IMAGE_OPTION_KEYS = ['labels', 'columns', 'cmap', 'scale', 'vmin', 'vmax', 'image'];

/** `display(images, { labels, columns })`: a tensor (or tensors) with image options is a grid. */
function asImages(value: unknown, options: unknown): ImageGrid | null {
  if (typeof options !== 'object' || options === null) return null;
  if (!IMAGE_OPTION_KEYS.some((k) => k in options)) return null;
  const tensors =
    value instanceof Tensor ||
    (Array.isArray(value) && value.length > 0 && value.every((v) => v instanceof Tensor));
  return tensors ? imageGrid(value as Tensor | Tensor[], options as ImageGridOptions) : null;
}

export function createOutputGlobals(target: SinkSource): Record<string, unknown> {
  const sink = (): OutputSink | null => target.current();
  const print = (text: string): void => {
    sink()?.add({ kind: 'stream', name: 'stdout', text: text.endsWith('\n') ? text : `${text}\n` });
  };
  const show = (value: LiveOutput): void => void displayValue(sink(), value);
  const markResult = <T>(value: T): T => {
    const s = sink();
    if (s && typeof value === 'object' && value !== null) markShown(s, value);
    return value;
  };

  setAutoDisplay(show);
  const loopChart = new AutoChart(target);
  setMetricListener(loopChart.metricListener);
  setPostfixListener(loopChart.postfix);
  setEpochLogListener(loopChart.epochLog);
  setDefaultObservers(() => (sink() ? [createFitObserver(show), loopChart.fitObserver()] : []));
  const autoChart = (options: Parameters<AutoChart['configure']>[0] = true): void =>
    loopChart.configure(options);

  const display = (value: unknown, options?: unknown): DisplayHandle | LiveOutput =>
    displayValue(sink(), asImages(value, options) ?? value);

  const timeit = async (fn: () => unknown, options: TimeOptions = {}): Promise<number> => {
    const stats = summarize(await measure(fn, options));
    print(timingLine(stats, options.warmup ?? 1));
    return stats.median;
  };

  const compareDevices = async (
    fn: (device: string) => unknown,
    options: CompareOptions & { title?: string } = {},
  ): Promise<DeviceTiming[]> => {
    const rows = await timeDevices(fn, options);
    displayValue(sink(), rows);
    displayValue(sink(), timingChart(rows, options.title));
    const note = emulationNote(rows);
    if (note) print(note);
    return markResult(rows);
  };

  const profile = async (fn: () => unknown, options: ProfileOptions = {}) => {
    const { profiles, unsupported } = await runProfile(fn, options);
    for (const data of profiles) showBundle(sink(), profileBundle(data));
    if (unsupported.length > 0) {
      print(`Not profiled: ${unsupported.join(', ')} (no timestamp-query on this adapter).`);
    }
    if (profiles.length === 0 && unsupported.length === 0) {
      print('Nothing to profile: there is no GPU (profile() times WebGPU dispatches).');
    }
    return markResult(profiles);
  };

  const plotMetric = (history: unknown, metric: string): void => {
    void displayValue(sink(), metricChart(history, metric));
  };

  const metricsLogger = (options: ChartOptions = {}): Chart => {
    const chart = new Chart(options);
    show(chart);
    return chart;
  };

  return {
    display,
    Chart,
    metricsLogger,
    tqdm,
    progress,
    ProgressBar,
    Progbar,
    plotMetric,
    autoChart,
    imageGrid,
    timeit,
    compareDevices,
    profile,
  };
}
