/**
 * `display(value)` with handles: every display output gets an id, and its handle redraws it in
 * place (`update-display`), throttled, with a final update when the cell ends. Objects that
 * change as a loop runs (charts, progress bars) are live outputs: once displayed they redraw
 * themselves through their handles.
 */
import { toMimeBundle } from '../display';
import type { OutputSink } from '../output-sink';
import type { CellOutput, MimeBundle } from '../protocol';
import { DEFAULT_INTERVAL_MS, Throttle } from './throttle';

type Awaitable<T> = T | Promise<T>;

/** Where output goes: the running cell's sink, or null between cells. */
export interface SinkSource {
  current(): OutputSink | null;
}

/** An object that draws itself and redraws through the handles it was displayed with. */
export interface LiveOutput {
  toBundle(): Awaitable<MimeBundle>;
  /** Called by `display`: from now on, changes redraw through `handle`. */
  attach(handle: DisplayHandle): void;
}

export function isLiveOutput(value: unknown): value is LiveOutput {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<LiveOutput>).toBundle === 'function' &&
    typeof (value as Partial<LiveOutput>).attach === 'function'
  );
}

/** Unique across kernel restarts, so a stale update can never hit a newer output. */
const idPrefix = Math.random().toString(36).slice(2, 8);
let nextId = 0;

/** Redraws one display output in place. */
export class DisplayHandle {
  private readonly throttle: Throttle<unknown>;
  /** Orders asynchronous bundles: a slow older one never overwrites a newer one. */
  private sent = 0;
  private shown = 0;

  constructor(
    readonly id: string,
    private readonly sink: OutputSink | null,
    intervalMs = DEFAULT_INTERVAL_MS,
  ) {
    this.throttle = new Throttle((value) => this.send(value), intervalMs);
  }

  /** Replaces what the output shows (at most four times a second; the newest value wins). */
  update(value: unknown): void {
    if (this.sink) this.throttle.push(value);
  }

  /** Sends a waiting update now. */
  flush(): void {
    this.throttle.flush();
  }

  private send(value: unknown): void {
    const sink = this.sink;
    if (!sink) return;
    const bundle = isLiveOutput(value) ? value.toBundle() : toMimeBundle(value);
    const order = ++this.sent;
    const post = (data: MimeBundle): void => {
      if (order < this.shown) return;
      this.shown = order;
      sink.updateDisplay(this.id, data);
    };
    if (bundle instanceof Promise) void bundle.then(post, () => {});
    else post(bundle);
  }
}

/** Values each cell displayed itself: its last expression is not shown a second time. */
const shownBySink = new WeakMap<OutputSink, WeakSet<object>>();

export function shownInCell(sink: OutputSink, value: unknown): boolean {
  return typeof value === 'object' && value !== null && !!shownBySink.get(sink)?.has(value);
}

/** Keeps `value` from being shown again as the cell's result (it was just displayed). */
export function markShown(sink: OutputSink, value: object): void {
  let set = shownBySink.get(sink);
  if (!set) {
    set = new WeakSet();
    shownBySink.set(sink, set);
  }
  set.add(value);
}

/** Makes the display output of `bundle` in the running cell and returns its handle. */
export function showBundle(
  sink: OutputSink | null,
  bundle: Awaitable<MimeBundle>,
  intervalMs = DEFAULT_INTERVAL_MS,
): DisplayHandle {
  const id = `${idPrefix}-${++nextId}`;
  const handle = new DisplayHandle(id, sink, intervalMs);
  if (!sink) return handle;
  sink.add(
    bundle instanceof Promise
      ? bundle.then((data): CellOutput => ({ kind: 'display', data, displayId: id }))
      : { kind: 'display', data: bundle, displayId: id },
    id,
  );
  sink.beforeClose(() => handle.flush());
  return handle;
}

/**
 * `display(value)`: a live output is shown and returned (so `display(new Chart())` can be logged
 * into); any other value is shown and a handle `{ id, update(value) }` returned.
 */
export function displayValue(sink: OutputSink | null, value: unknown): DisplayHandle | LiveOutput {
  const bundle = isLiveOutput(value) ? value.toBundle() : toMimeBundle(value);
  const handle = showBundle(sink, bundle);
  const returned = isLiveOutput(value) ? value : handle;
  if (isLiveOutput(value)) value.attach(handle);
  if (sink) markShown(sink, returned);
  return returned;
}

/**
 * How live outputs display themselves when used before `display` (a chart logged into, a tqdm
 * loop started): the kernel installs the running cell's display here.
 */
let autoDisplay: ((value: LiveOutput) => void) | null = null;

export function setAutoDisplay(show: ((value: LiveOutput) => void) | null): void {
  autoDisplay = show;
}

export function showAutomatically(value: LiveOutput): void {
  autoDisplay?.(value);
}

/** The handles a live output redraws through; shared by charts and progress bars. */
export class LiveHandles {
  private readonly handles: DisplayHandle[] = [];

  get displayed(): boolean {
    return this.handles.length > 0;
  }

  /** The id of the first display, for `chart.id`. */
  get id(): string | null {
    return this.handles[0]?.id ?? null;
  }

  add(handle: DisplayHandle): void {
    this.handles.push(handle);
  }

  /** Redraws every display of `owner` (throttled). */
  changed(owner: LiveOutput): void {
    for (const h of this.handles) h.update(owner);
  }

  /** Sends the waiting redraws now. */
  flush(): void {
    for (const h of this.handles) h.flush();
  }
}
