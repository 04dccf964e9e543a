import { describe, expect, it } from 'vitest';
import { Throttle } from './throttle';
import { ManualClock } from './testing-clock';

describe('Throttle', () => {
  it('sends the first value at once, then at most one per interval, newest wins', () => {
    const clock = new ManualClock();
    const sent: [number, number][] = [];
    const t = new Throttle<number>((v) => sent.push([clock.now(), v]), 250, clock);
    // 1000 pushes over one second, one per millisecond.
    for (let i = 0; i < 1000; i++) {
      t.push(i);
      clock.advance(1);
    }
    t.flush();
    const times = sent.map(([at]) => at);
    for (let i = 1; i < times.length; i++)
      expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(250);
    expect(sent.length).toBeLessThanOrEqual(6);
    expect(sent[0]).toEqual([0, 0]);
    // The final flush delivers the last value pushed.
    expect(sent[sent.length - 1][1]).toBe(999);
    // Each timed send carries the newest value at its time (push i happens at time i).
    for (const [at, v] of sent.slice(1, -1)) expect(v).toBe(at - 1);
  });

  it('sends a lone trailing value when its timer fires, and flush after that sends nothing new', () => {
    const clock = new ManualClock();
    const sent: string[] = [];
    const t = new Throttle<string>((v) => sent.push(v), 100, clock);
    t.push('a');
    clock.advance(10);
    t.push('b');
    t.push('c');
    expect(sent).toEqual(['a']);
    expect(t.hasPending).toBe(true);
    clock.advance(89);
    expect(sent).toEqual(['a']);
    clock.advance(1);
    expect(sent).toEqual(['a', 'c']);
    t.flush();
    expect(sent).toEqual(['a', 'c']);
    clock.advance(500);
    t.push('d');
    expect(sent).toEqual(['a', 'c', 'd']);
  });

  it('cancel drops the waiting value', () => {
    const clock = new ManualClock();
    const sent: number[] = [];
    const t = new Throttle<number>((v) => sent.push(v), 100, clock);
    t.push(1);
    t.push(2);
    t.cancel();
    clock.advance(1000);
    t.flush();
    expect(sent).toEqual([1]);
  });
});
