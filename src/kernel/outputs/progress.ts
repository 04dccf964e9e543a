/**
 * Progress bars as tqdm and Keras's Progbar draw them: `tqdm(iterable)` counts a loop (sync or
 * `for await`), `progress(total)` is counted by hand, `Progbar` takes Keras's absolute
 * `update(current, values)`. They show themselves when they start and redraw live, throttled.
 */
import { PROGRESS_MIME, type MimeBundle, type ProgressData } from '../protocol';
import { formatPostfixValue, formatProgress } from './progress-format';
import {
  LiveHandles,
  showAutomatically,
  type DisplayHandle,
  type LiveOutput,
} from './live-display';
import { realClock, type Clock } from './throttle';

export interface ProgressOptions {
  total?: number | null;
  desc?: string;
  unit?: string;
  style?: 'tqdm' | 'keras';
  /** Time source (tests). */
  clock?: Clock;
}

/** A number of items, if the value knows it (arrays, DataLoaders, Sets, Maps). */
export function lengthOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as { length?: unknown; size?: unknown };
  if (typeof v.length === 'number' && Number.isFinite(v.length)) return v.length;
  if (typeof v.size === 'number' && Number.isFinite(v.size)) return v.size;
  return null;
}

/**
 * Hears the postfix values of the bars a user made (`tqdm`, `progress`), for the automatic loop
 * chart; the kernel installs it. Bars of a fit are not heard: fit draws its own chart.
 */
export type PostfixListener = (bar: ProgressBar, values: Record<string, unknown>) => void;
let postfixListener: PostfixListener | null = null;

export function setPostfixListener(listener: PostfixListener | null): void {
  postfixListener = listener;
}

/** `name=value` pairs of a postfix string (`'loss=0.52, acc=0.8'`); null when it is not one. */
export function parsePostfixString(text: string): Record<string, string> | null {
  const parts = text
    .split(/,\s*|\s+(?=[^\s=]+=)/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const pairs: [string, string][] = [];
  for (const part of parts) {
    const match = /^([^=\s]+)\s*=\s*(.*)$/.exec(part);
    if (!match) return null;
    pairs.push([match[1], match[2]]);
  }
  return pairs.length > 0 ? Object.fromEntries(pairs) : null;
}

export class ProgressBar implements LiveOutput {
  n = 0;
  /** Its postfix values feed the automatic loop chart (bars the user made, not fit's). */
  feedsLoopChart = false;
  /** An item is being processed (inside a tqdm loop's body): the position is `n + 1`. */
  iterating = false;
  total: number | null;
  desc: string | undefined;
  readonly unit: string;
  readonly style: 'tqdm' | 'keras';
  private postfix: Record<string, string> = {};
  private readonly clock: Clock;
  private start: number;
  private end: number | null = null;
  private readonly live = new LiveHandles();

  constructor(options: ProgressOptions = {}) {
    this.total = options.total ?? null;
    this.desc = options.desc;
    this.unit = options.unit ?? 'it';
    this.style = options.style ?? 'tqdm';
    this.clock = options.clock ?? realClock;
    this.start = this.clock.now();
  }

  /** The id of the bar's display, once shown. */
  get id(): string | null {
    return this.live.id;
  }

  get closed(): boolean {
    return this.end !== null;
  }

  /** tqdm's `update(n)`: counts `n` more items (default 1). */
  update(n = 1): this {
    this.n += n;
    return this.changed();
  }

  /** Sets the count (Keras's `update(current)`). */
  set(value: number): this {
    this.n = value;
    return this.changed();
  }

  /** tqdm's `set_postfix`: keyword values in sorted order, numbers to 3 significant digits. */
  setPostfix(values: Record<string, unknown>): this {
    const sorted = Object.keys(values).sort();
    this.postfix = Object.fromEntries(sorted.map((k) => [k, formatPostfixValue(values[k])]));
    if (this.feedsLoopChart) postfixListener?.(this, values);
    return this.changed();
  }

  /** tqdm's `set_postfix_str`: the text as given; its `name=value` pairs feed the loop chart. */
  setPostfixStr(text: string): this {
    const pairs = parsePostfixString(String(text));
    this.postfix = pairs ?? (text === '' ? {} : { [String(text)]: '' });
    if (pairs && this.feedsLoopChart) postfixListener?.(this, pairs);
    return this.changed();
  }

  /** Keras's values in given order, as `loss: 0.5210`. */
  setValues(values: Record<string, unknown>): this {
    this.postfix = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
    return this.changed();
  }

  setDescription(desc: string): this {
    this.desc = desc;
    return this.changed();
  }

  /** Starts counting again (a new phase of a loop) with an optional new total. */
  reset(total: number | null = this.total): this {
    this.n = 0;
    this.total = total;
    this.start = this.clock.now();
    this.end = null;
    this.postfix = {};
    return this.changed();
  }

  /** Stops the clock and sends the final state at once. */
  close(): void {
    if (this.end !== null) return;
    this.end = this.clock.now();
    this.changed();
    this.live.flush();
  }

  toData(): ProgressData {
    const elapsed = ((this.end ?? this.clock.now()) - this.start) / 1000;
    const rate = elapsed > 0 && this.n > 0 ? this.n / elapsed : null;
    const remaining =
      this.total !== null && rate !== null ? Math.max(0, this.total - this.n) / rate : null;
    const data: ProgressData = {
      value: this.n,
      max: this.total,
      unit: this.unit,
      elapsed,
      rate,
      remaining,
      postfix: { ...this.postfix },
      style: this.style,
      done: this.end !== null,
    };
    if (this.desc) data.desc = this.desc;
    return data;
  }

  toBundle(): MimeBundle {
    const data = this.toData();
    return { 'text/plain': formatProgress(data), [PROGRESS_MIME]: data };
  }

  attach(handle: DisplayHandle): void {
    this.live.add(handle);
  }

  private changed(): this {
    if (!this.live.displayed) showAutomatically(this);
    this.live.changed(this);
    return this;
  }
}

/** `tqdm(iterable, { total, desc })`: the items of `iterable`, counted by a live bar. */
export class Tqdm<T> extends ProgressBar implements Iterable<T>, AsyncIterable<T> {
  constructor(
    private readonly source: Iterable<T> | AsyncIterable<T>,
    options: ProgressOptions = {},
  ) {
    super({ ...options, total: options.total ?? lengthOf(source) });
  }

  *[Symbol.iterator](): Iterator<T> {
    const source = this.source as Partial<Iterable<T>>;
    if (typeof source[Symbol.iterator] !== 'function') {
      throw new TypeError('tqdm: this iterable is asynchronous; loop over it with `for await`');
    }
    this.reset();
    let finished = false;
    try {
      for (const item of source as Iterable<T>) {
        this.iterating = true;
        yield item;
        this.iterating = false;
        this.update(1);
      }
      finished = true;
    } finally {
      this.iterating = false;
      this.finish(finished);
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    this.reset();
    let finished = false;
    try {
      for await (const item of this.source) {
        this.iterating = true;
        yield item;
        this.iterating = false;
        this.update(1);
      }
      finished = true;
    } finally {
      this.iterating = false;
      this.finish(finished);
    }
  }

  /** A loop left early keeps its bar where it stopped, as tqdm does. */
  private finish(finished: boolean): void {
    if (finished && this.total === null) this.total = this.n;
    this.close();
  }
}

/** Keras's Progbar: `update(current, values)` sets the count, `add(n, values)` adds to it. */
export class Progbar extends ProgressBar {
  constructor(target: number | null, options: Omit<ProgressOptions, 'total' | 'style'> = {}) {
    super({ ...options, total: target, style: 'keras', unit: options.unit ?? 'step' });
  }

  override update(current = this.n + 1, values?: Record<string, unknown>): this {
    if (values) this.setValues(values);
    this.set(current);
    if (this.total !== null && current >= this.total) this.close();
    return this;
  }

  add(n: number, values?: Record<string, unknown>): this {
    return this.update(this.n + n, values);
  }
}

/** `tqdm(iterable, { total, desc })`. */
export function tqdm<T>(
  iterable: Iterable<T> | AsyncIterable<T>,
  options: ProgressOptions = {},
): Tqdm<T> {
  const bar = new Tqdm(iterable, options);
  bar.feedsLoopChart = true;
  return bar;
}

/** `progress(total, { desc })`: a bar shown now and counted with `bar.update(n)`. */
export function progress(total: number | null = null, options: ProgressOptions = {}): ProgressBar {
  const bar = new ProgressBar({ ...options, total });
  bar.feedsLoopChart = true;
  showAutomatically(bar);
  return bar;
}
