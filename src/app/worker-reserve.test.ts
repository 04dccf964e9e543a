import { describe, expect, it } from 'vitest';
import { workerReserve, type ReservableWorker } from './worker-reserve';

class FakeWorker implements ReservableWorker {
  static made = 0;
  readonly id = ++FakeWorker.made;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  terminate(): void {
    this.terminated = true;
  }
  /** What a script that fails to load does: an error event on the worker. */
  fail(): boolean {
    let prevented = false;
    this.onerror?.({ preventDefault: () => (prevented = true) } as unknown as ErrorEvent);
    return prevented;
  }
}

/** A reserve over fake workers, and every worker it has made, in order. */
function recordingReserve() {
  const made: FakeWorker[] = [];
  const reserve = workerReserve(() => {
    const w = new FakeWorker();
    made.push(w);
    return w;
  });
  return { reserve, made };
}

describe('kernel worker reserve', () => {
  it('hands the prewarmed worker to the first kernel only, without its own error handler', () => {
    const { reserve, made } = recordingReserve();
    reserve.prewarm();
    reserve.prewarm(); // once
    expect(made).toHaveLength(1);
    const first = reserve.take();
    expect(first).toBe(made[0]);
    expect(first.onerror).toBeNull();
    const second = reserve.take();
    expect(second).not.toBe(first);
    expect(made).toHaveLength(2);
  });

  it('without a prewarm, each take starts a worker', () => {
    const reserve = workerReserve(() => new FakeWorker());
    expect(reserve.take()).not.toBe(reserve.take());
  });

  it('a prewarmed worker whose script failed is terminated and replaced', () => {
    const { reserve, made } = recordingReserve();
    reserve.prewarm();
    expect(made[0].fail()).toBe(true);
    const taken = reserve.take();
    expect(made[0].terminated).toBe(true);
    expect(taken).toBe(made[1]);
    expect(taken.terminated).toBe(false);
  });
});
