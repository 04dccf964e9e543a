/**
 * Collects a cell's outputs in call order and posts them in batches.
 *
 * An output may still be computing (a tensor being read back from the GPU): it holds its place,
 * and nothing after it is posted until it is ready, so outputs always arrive in call order.
 * Batching keeps a cell that prints a million lines from flooding the page; past the per-cell
 * caps, outputs are counted and dropped.
 */
import type { CellOutput, MimeBundle } from './protocol';

export interface OutputSinkLimits {
  maxOutputs: number;
  maxTextChars: number;
  flushIntervalMs: number;
}

export const DEFAULT_LIMITS: OutputSinkLimits = {
  maxOutputs: 2_000,
  maxTextChars: 2_000_000,
  flushIntervalMs: 50,
};

type Pending = CellOutput | Clear | Promise<CellOutput>;

export interface OutputPoster {
  outputs(outputs: CellOutput[]): void;
  updateDisplay(displayId: string, data: MimeBundle): void;
  /** Clears the outputs posted so far (IPython's `clear_output`); absent: nothing to clear. */
  clearOutput?(): void;
}

/** A `clear_output()` waiting for its place among the outputs. */
const CLEAR = { kind: 'clear' } as const;
const CLEAR_ON_NEXT = { kind: 'clear-on-next' } as const;
type Clear = typeof CLEAR | typeof CLEAR_ON_NEXT;

export class OutputSink {
  private readonly pending: Pending[] = [];
  private readonly ready: CellOutput[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private kept = 0;
  private textChars = 0;
  private dropped = 0;
  private draining: Promise<void> = Promise.resolve();
  private drainingNow = false;
  /**
   * Display ids added but not posted yet, with the newest update that arrived meanwhile: an
   * update must land on its output even while that output still waits for its place.
   */
  private readonly unposted = new Map<string, MimeBundle | null>();
  private readonly closers: (() => void | Promise<void>)[] = [];
  /** `clear_output(wait=True)` was called: the next output clears the cell first. */
  private clearOnNext = false;

  constructor(
    private readonly post: OutputPoster,
    private readonly limits: OutputSinkLimits = DEFAULT_LIMITS,
  ) {}

  get droppedOutputs(): number {
    return this.dropped;
  }

  /** Queues an output; `displayId` names a display output that may be updated before it is posted. */
  add(output: Pending, displayId?: string): void {
    if (displayId !== undefined) this.unposted.set(displayId, null);
    if (this.pending.length === 0 && !(output instanceof Promise)) {
      this.accept(output);
      this.schedule();
      return;
    }
    this.pending.push(
      output instanceof Promise
        ? output.catch((error: unknown): CellOutput => ({
            kind: 'stream',
            name: 'stderr',
            text: `[output failed: ${error instanceof Error ? error.message : String(error)}]\n`,
          }))
        : output,
    );
    if (!this.drainingNow) this.draining = this.drain();
  }

  /**
   * IPython's `clear_output(wait)`: in call order, the cell's outputs so far go (those not posted
   * yet are dropped here, the others by a `clear-output` event); with `wait`, only when the next
   * output arrives. Clearing also resets the per-cell caps, so a loop that redraws itself keeps
   * going.
   */
  clear(wait = false): void {
    if (wait) {
      this.add(CLEAR_ON_NEXT);
      return;
    }
    this.add(CLEAR);
  }

  /** Replaces a live display (chart, progress bar) in place; the newest update wins. */
  updateDisplay(displayId: string, data: MimeBundle): void {
    if (this.unposted.has(displayId)) {
      const index = this.ready.findIndex((o) => o.kind === 'display' && o.displayId === displayId);
      if (index >= 0) this.ready[index] = { ...this.ready[index], data } as CellOutput;
      else this.unposted.set(displayId, data);
      return;
    }
    this.flushNow();
    this.post.updateDisplay(displayId, data);
  }

  /** Runs `fn` when the cell ends, before the last outputs go (live outputs send final updates). */
  beforeClose(fn: () => void | Promise<void>): void {
    this.closers.push(fn);
  }

  /** Waits for every pending output and posts everything. */
  async close(): Promise<void> {
    while (this.closers.length > 0) {
      await Promise.all(this.closers.splice(0).map(async (fn) => fn()));
    }
    await this.draining;
    this.flushNow();
  }

  private async drain(): Promise<void> {
    this.drainingNow = true;
    try {
      while (this.pending.length > 0) {
        const output = await this.pending[0];
        this.pending.shift();
        this.accept(output);
        this.schedule();
      }
    } finally {
      this.drainingNow = false;
    }
  }

  private accept(output: CellOutput | Clear): void {
    if (output.kind === 'clear-on-next') {
      this.clearOnNext = true;
      return;
    }
    if (output.kind === 'clear' || this.clearOnNext) {
      this.clearOnNext = false;
      this.clearNow();
      if (output.kind === 'clear') return;
    }
    const chars = output.kind === 'stream' ? output.text.length : 0;
    if (
      output.kind !== 'error' &&
      (this.kept >= this.limits.maxOutputs || this.textChars + chars > this.limits.maxTextChars)
    ) {
      this.dropped++;
      if (output.kind === 'display' && output.displayId) this.unposted.delete(output.displayId);
      return;
    }
    if (output.kind === 'display' && output.displayId) {
      const newer = this.unposted.get(output.displayId);
      if (newer) output = { ...output, data: newer };
    }
    const last = this.ready[this.ready.length - 1];
    if (output.kind === 'stream' && last?.kind === 'stream' && last.name === output.name) {
      this.ready[this.ready.length - 1] = { ...last, text: last.text + output.text };
    } else {
      this.ready.push(output);
      this.kept++;
    }
    this.textChars += chars;
  }

  private clearNow(): void {
    for (const o of this.ready)
      if (o.kind === 'display' && o.displayId) this.unposted.delete(o.displayId);
    this.ready.length = 0;
    this.kept = 0;
    this.textChars = 0;
    this.post.clearOutput?.();
  }

  private schedule(): void {
    if (this.timer !== null || this.ready.length === 0) return;
    this.timer = setTimeout(() => this.flushNow(), this.limits.flushIntervalMs);
  }

  private flushNow(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.ready.length === 0) return;
    const outputs = this.ready.splice(0);
    for (const o of outputs)
      if (o.kind === 'display' && o.displayId) this.unposted.delete(o.displayId);
    this.post.outputs(outputs);
  }
}
