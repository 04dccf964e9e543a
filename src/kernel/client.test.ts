import { describe, expect, it } from 'vitest';
import type { KernelState } from './client';
import { ScriptedKernel } from './testing/scripted-worker';

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('KernelClient: the one run queue', () => {
  it('sends one run at a time, counting when each is sent, and stays busy between them', async () => {
    const k = new ScriptedKernel();
    const states: KernelState[] = [];
    k.client.subscribe({ state: (s) => states.push(s) });
    k.client.start();
    const results = [k.client.execute('a', '1'), k.client.execute('b', '2', 'python')];
    expect(k.executed).toEqual([]); // nothing before the worker is ready
    k.ready();
    k.finish([]);
    k.finish([]);
    expect(await Promise.all(results)).toEqual(['ok', 'ok']);
    expect(k.executed).toEqual([
      { cellId: 'a', code: '1', executionCount: 1, language: 'typescript' },
      { cellId: 'b', code: '2', executionCount: 2, language: 'python' },
    ]);
    expect(states).toEqual(['starting', 'busy', 'idle']);
  });

  it('an error cancels the runs queued behind it, and they use no execution count', async () => {
    const k = new ScriptedKernel();
    const cancelled: string[] = [];
    k.client.subscribe({ cancelled: (ids) => cancelled.push(...ids) });
    k.client.start();
    k.ready();
    const results = ['a', 'b', 'c'].map((id) => k.client.execute(id, id));
    k.finish([{ kind: 'error', ename: 'Error', evalue: 'boom', traceback: [] }], 'error');
    expect(await Promise.all(results)).toEqual(['error', 'cancelled', 'cancelled']);
    expect(cancelled).toEqual(['b', 'c']);
    void k.client.execute('d', 'd');
    expect(k.executed.map((e) => [e.cellId, e.executionCount])).toEqual([
      ['a', 1],
      ['d', 2],
    ]);
  });

  it('tells started and done with the run’s count, and ignores a replaced worker’s events', async () => {
    const k = new ScriptedKernel();
    const seen: string[] = [];
    k.client.subscribe({
      started: (id, n) => seen.push(`started ${id} ${n}`),
      done: (e, n) => seen.push(`done ${e.cellId} ${n} ${e.status}`),
      reset: (reason, running) => seen.push(`reset ${reason} ${running}`),
    });
    k.client.start();
    k.ready();
    const first = k.client.execute('a', 'while (true) {}');
    k.startRunning();
    k.client.interrupt(); // the worker never answers: it is replaced after hardInterruptAfterMs
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await first).toBe('interrupted');
    expect(k.workersOpened).toBe(2);
    k.ready();
    const second = k.client.execute('b', '1');
    k.finish([]);
    expect(await second).toBe('ok');
    await settle();
    expect(seen).toEqual([
      'started a 1',
      'reset interrupt a',
      'started b 1', // a new worker counts from 1
      'done b 1 ok',
    ]);
    expect(k.interrupts).toBe(1);
  });

  it('dispose cancels what is queued and running', async () => {
    const k = new ScriptedKernel();
    k.client.start();
    k.ready();
    const results = [k.client.execute('a', 'a'), k.client.execute('b', 'b')];
    expect(k.client.isPending('b')).toBe(true);
    expect(k.client.runningCellId).toBe('a');
    k.client.dispose();
    expect(await Promise.all(results)).toEqual(['cancelled', 'cancelled']);
    expect(k.client.isPending('b')).toBe(false);
    expect(k.disposed).toBe(true);
  });

  it('a silent run takes no execution count and its error stops nothing queued', async () => {
    const k = new ScriptedKernel();
    k.client.start();
    k.ready();
    const hidden = k.client.execute('export', 'x', 'python', { silent: true });
    const cell = k.client.execute('a', 'a', 'python');
    k.finish([], 'error');
    expect(await hidden).toBe('error');
    k.finish([]);
    expect(await cell).toBe('ok');
    expect(k.executed.map((e) => [e.cellId, e.executionCount])).toEqual([
      ['export', 0],
      ['a', 1],
    ]);
  });
});
