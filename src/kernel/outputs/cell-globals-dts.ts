/**
 * Editor declarations of the rich-output globals (./globals.ts), in the `{ name, declaration }`
 * form of scripts/cell-api-dts.ts's KERNEL_GLOBALS, so cells get completions and no false errors.
 * They replace that list's `display`, `timeit` and `compareDevices` entries.
 */

const TYPES = `interface DisplayHandle { readonly id: string; update(value: unknown): void; flush(): void }
interface ChartOptions { title?: string; xLabel?: string; kind?: 'line' | 'bar'; yRange?: Record<string, [number, number]>; xRange?: [number, number] }
interface ChartLogOptions { x?: number; panel?: string; detail?: boolean; dashed?: boolean }
declare class Chart {
  constructor(options?: ChartOptions);
  readonly id: string | null;
  readonly points: number;
  /** Appends one value per key; an \`epoch\` or \`step\` key is the x of the others. */
  log(values: Record<string, unknown>, options?: ChartLogOptions): this;
  add(series: string, x: number, y: number, options?: Omit<ChartLogOptions, 'x'>): this;
  setSeries(series: string, points: [number, number][], options?: Omit<ChartLogOptions, 'x'> & { categories?: string[]; yLabel?: string }): this;
  flush(): void;
}
interface ProgressOptions { total?: number | null; desc?: string; unit?: string; style?: 'tqdm' | 'keras' }
declare class ProgressBar {
  constructor(options?: ProgressOptions);
  n: number;
  total: number | null;
  readonly id: string | null;
  readonly closed: boolean;
  update(n?: number): this;
  set(value: number): this;
  setPostfix(values: Record<string, unknown>): this;
  /** tqdm's set_postfix_str: the text as given; its \`name=value\` pairs feed the loop chart. */
  setPostfixStr(text: string): this;
  setDescription(desc: string): this;
  reset(total?: number | null): this;
  close(): void;
}
declare class Tqdm<T> extends ProgressBar implements Iterable<T>, AsyncIterable<T> {
  [Symbol.iterator](): Iterator<T>;
  [Symbol.asyncIterator](): AsyncIterator<T>;
}
declare class Progbar extends ProgressBar {
  constructor(target: number | null, options?: { desc?: string; unit?: string });
  update(current?: number, values?: Record<string, unknown>): this;
  add(n: number, values?: Record<string, unknown>): this;
}
interface ImageGridOptions { labels?: readonly unknown[]; columns?: number; cmap?: 'gray' | 'viridis'; scale?: number; vmin?: number; vmax?: number }
interface ImageGrid { readonly options: ImageGridOptions }
interface DeviceTiming { device: string; adapter: string; median_ms: number; min_ms: number; max_ms: number; speedup: number }
interface ProfileRow { op: string; calls: number; totalMs: number; meanUs: number; percent: number }
interface ProfileData { device: string; adapter: string; wallMs: number; gpuMs: number; dispatches: number; rows: ProfileRow[]; note?: string }`;

export const OUTPUT_GLOBALS_DTS: { name: string; declaration: string }[] = [
  { name: 'Chart', declaration: TYPES },
  {
    name: 'display',
    declaration: `/** Rich output: a tensor, records (a table), a chart, images (\`display(images, { labels })\`). Returns a handle to update it in place; a chart or bar is returned itself. */
declare function display<T extends Chart | ProgressBar>(value: T): T;
declare function display(value: unknown, options?: ImageGridOptions): DisplayHandle;`,
  },
  {
    name: 'metricsLogger',
    declaration: `/** A chart shown now, to \`log({ loss, acc })\` into from a hand-written loop. */
declare const metricsLogger: (options?: ChartOptions) => Chart;`,
  },
  {
    name: 'tqdm',
    declaration: `/** A live progress bar over a loop: \`for await (const batch of tqdm(loader))\`. */
declare function tqdm<T>(iterable: Iterable<T> | AsyncIterable<T>, options?: ProgressOptions): Tqdm<T>;`,
  },
  {
    name: 'progress',
    declaration: `/** A progress bar shown now and counted with \`bar.update(n)\`. */
declare const progress: (total?: number | null, options?: ProgressOptions) => ProgressBar;`,
  },
  { name: 'ProgressBar', declaration: '' },
  { name: 'Progbar', declaration: '' },
  {
    name: 'plotMetric',
    declaration: `/** The chapter's plot_metric: train and validation curves of one metric by epoch. */
declare const plotMetric: (history: unknown, metric: string) => void;`,
  },
  {
    name: 'loadText',
    declaration: `/** A bundled plain text as one string: \`await loadText('sotu')\` (State of the Union addresses 1993–2021). */
declare const loadText: (name: 'sotu') => Promise<string>;`,
  },
  {
    name: 'autoChart',
    declaration: `/** The automatic chart of a hand-written loop (Keras metrics' result(), torchmetrics' compute(), tqdm postfix values): \`autoChart(false)\` turns it off, \`autoChart({ names: { train_loss: 'loss' } })\` renames series. */
declare const autoChart: (options?: boolean | { enabled?: boolean; names?: Record<string, string> }) => void;`,
  },
  {
    name: 'imageGrid',
    declaration: `/** A grid of images (N×1×H×W, N×H×W, N×H×W×C, or a list of image tensors) with labels. */
declare const imageGrid: (images: unknown, options?: ImageGridOptions) => ImageGrid;`,
  },
  {
    name: 'timeit',
    declaration: `/** Runs \`fn\` (sync or async) after warm-up, \`repeat\` times, waiting for the devices; prints and returns the median seconds. */
declare const timeit: (fn: () => unknown, options?: { repeat?: number; warmup?: number }) => Promise<number>;`,
  },
  {
    name: 'compareDevices',
    declaration: `/** Runs \`fn(device)\` on each device (default: cpu and every GPU), prints a table and draws a bar chart of times and speed-ups. */
declare const compareDevices: (fn: (device: string) => unknown, options?: { devices?: string[]; repeat?: number; warmup?: number; title?: string }) => Promise<DeviceTiming[]>;`,
  },
  {
    name: 'profile',
    declaration: `/** Runs \`fn\` with every GPU dispatch timed (timestamp queries) and shows the top ops. */
declare const profile: (fn: () => unknown, options?: { top?: number; byKernel?: boolean }) => Promise<ProfileData[]>;`,
  },
  {
    name: 'benchmarkDevice',
    declaration: `interface BenchmarkMeasurement { medianSeconds: number; minSeconds: number; maxSeconds: number; runs: number }
interface BenchmarkRow { case: string; flops: number; gpu: BenchmarkMeasurement | { error: string } | null; cpu: BenchmarkMeasurement | { error: string } | null; peakGflops?: number }
interface DeviceBenchmarkReport { adapter: string; date: string; peakGflops: number | null; peakError?: string; rows: BenchmarkRow[] }
/** Times the benchmark's matrix products and training steps on the cpu and the GPU, with the adapter's FMA peak; shows the table as Markdown and returns the report. */
declare const benchmarkDevice: (options?: { sizes?: 'auto' | 'full' | 'small' }) => Promise<DeviceBenchmarkReport>;`,
  },
];
