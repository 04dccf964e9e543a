/**
 * Limits how often a live output is redrawn: the first value goes out at once, later ones at most
 * once per interval (the newest wins), and `flush` sends the last one immediately, so a loop that
 * logs a thousand times a second costs the page four redraws a second and still ends exact.
 */

/** Time and timers, injectable so tests control the clock. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** At most four redraws a second, as the outputs issue asks. */
export const DEFAULT_INTERVAL_MS = 250;

export class Throttle<T> {
  private lastEmit = -Infinity;
  private pending: { value: T } | null = null;
  private timer: unknown = null;

  constructor(
    private readonly emit: (value: T) => void,
    private readonly intervalMs = DEFAULT_INTERVAL_MS,
    private readonly clock: Clock = realClock,
  ) {}

  /** Whether a value is waiting for its turn. */
  get hasPending(): boolean {
    return this.pending !== null;
  }

  push(value: T): void {
    const now = this.clock.now();
    const due = this.lastEmit + this.intervalMs;
    if (now >= due && this.timer === null) {
      this.send(value, now);
      return;
    }
    this.pending = { value };
    if (this.timer === null) {
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = null;
          const next = this.pending;
          this.pending = null;
          if (next) this.send(next.value, this.clock.now());
        },
        Math.max(0, due - now),
      );
    }
  }

  /** Sends the waiting value now (the final update of a loop). */
  flush(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    const next = this.pending;
    this.pending = null;
    if (next) this.send(next.value, this.clock.now());
  }

  /** Drops the waiting value. */
  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private send(value: T, now: number): void {
    this.lastEmit = now;
    this.emit(value);
  }
}
