/**
 * The kernel session dispatching Python cells (ExecuteRequest.language) to the real Pyodide from
 * node_modules, beside TypeScript cells: outputs, Out, errors, interrupt and done statuses as the
 * page receives them.
 */
import { describe, expect, it } from 'vitest';
import {
  CHART_MIME,
  INTERRUPT_BUFFER_BYTES,
  PYTHON_SIGINT,
  PYTHON_SIGNAL_SLOT,
  type ChartData,
} from '../protocol';
import { startNodePython, startSession } from './testing/node-python';
import { BOUNDED_BUSY_LOOP, interruptFromAnotherThread } from './testing/interrupt-thread';

describe('KernelSession with Python cells', () => {
  it('runs Python and TypeScript cells of one session, each in its own language', async () => {
    const { run, outputsOf } = startSession({ python: startNodePython });
    const first = await run('print("py", 1 + 1)\n[1, 2]');
    expect(first.status).toBe('ok');
    expect(outputsOf(first.cellId)).toEqual([
      { kind: 'stream', name: 'stdout', text: 'py 2\n' },
      { kind: 'result', executionCount: 1, data: { 'text/plain': '[1, 2]' } },
    ]);
    const ts = await run('print("ts", 3 * 3)', 'typescript');
    expect(ts.status).toBe('ok');
    expect(outputsOf(ts.cellId)).toEqual([{ kind: 'stream', name: 'stdout', text: 'ts 9\n' }]);
  }, 60_000);

  it('shows a JavaScript value a Python cell ends with as a TypeScript cell would', async () => {
    const { run, outputsOf } = startSession({ python: startNodePython });
    const done = await run('import js\njs.Map.new([["epochs", 3]])');
    expect(done.status).toBe('ok');
    const [result] = outputsOf(done.cellId);
    expect(result).toMatchObject({ kind: 'result', executionCount: 1 });
    expect(result.kind === 'result' && result.data['text/plain']).toContain('epochs');
    expect(result.kind === 'result' && result.data['text/plain']).not.toContain('JsProxy');
  }, 60_000);

  it("print of a dict with a numeric epoch feeds the loop chart; the printed text is Python's", async () => {
    const { run, outputsOf } = startSession({ python: startNodePython });
    const losses = [0.75, 0.5, 0.3125]; // exact in binary: the chart must carry them unchanged
    const code = `for i, loss in enumerate(${JSON.stringify(losses)}):
    print({"epoch": i * 50, "loss": loss, "ok": True, "tag": "x"})
print({"step": 1, "loss": 9.0})`;
    expect((await run(code)).status).toBe('ok');
    const outputs = outputsOf('c1');
    const text = outputs.flatMap((o) => (o.kind === 'stream' ? [o.text] : [])).join('');
    expect(text.split('\n')[0]).toBe("{'epoch': 0, 'loss': 0.75, 'ok': True, 'tag': 'x'}");
    const charts = outputs.flatMap((o) =>
      o.kind === 'display' && CHART_MIME in o.data ? [o.data[CHART_MIME] as ChartData] : [],
    );
    expect(charts).toHaveLength(1);
    const all = charts[0].panels.flatMap((p) => p.series);
    expect(all.map((s) => s.name)).toEqual(['loss']);
    expect(all[0].points).toEqual(losses.map((loss, i) => [i * 50, loss]));
  });

  it('reports a Python error with its traceback and the error status', async () => {
    const { run, outputsOf } = startSession({ python: startNodePython });
    const done = await run('x = 1\nraise ValueError("bad shape")');
    expect(done.status).toBe('error');
    const [error] = outputsOf(done.cellId);
    expect(error).toMatchObject({ kind: 'error', ename: 'ValueError', evalue: 'bad shape' });
    expect(error.kind === 'error' && error.traceback).toEqual([
      'Traceback (most recent call last):',
      '  File "Cell In[1]", line 2, in <module>',
      '    raise ValueError("bad shape")',
      'ValueError: bad shape',
    ]);
  }, 60_000);

  it('ends an interrupted Python cell as interrupted and keeps its variables', async () => {
    const buffer = new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES);
    const { run, outputsOf } = startSession({ python: startNodePython, buffer });
    expect((await run('kept = 41')).status).toBe('ok');
    const worker = await interruptFromAnotherThread(buffer);
    const stopped = await run(BOUNDED_BUSY_LOOP);
    await worker.stop();
    expect(stopped.status).toBe('interrupted');
    expect(outputsOf(stopped.cellId)[0]).toMatchObject({
      kind: 'error',
      ename: 'KeyboardInterrupt',
    });
    const after = await run('kept + 1');
    expect(outputsOf(after.cellId)).toEqual([
      { kind: 'result', executionCount: 3, data: { 'text/plain': '42' } },
    ]);
  }, 60_000);

  it('an interrupt message stops a Python cell waiting on an await', async () => {
    const buffer = new SharedArrayBuffer(INTERRUPT_BUFFER_BYTES);
    const { session, run, outputsOf } = startSession({ python: startNodePython, buffer });
    expect((await run('kept = 5')).status).toBe('ok');
    const waiting = run('import asyncio\nawait asyncio.sleep(30)');
    // As the page does: the signal in the buffer, then the message; again until the cell ends,
    // since one sent before the cell has started would be lost on a slow host.
    const interrupt = () => {
      Atomics.store(new Int32Array(buffer), PYTHON_SIGNAL_SLOT, PYTHON_SIGINT);
      session.handle({ type: 'interrupt' });
    };
    const timer = setInterval(interrupt, 300);
    const stopped = await waiting;
    clearInterval(timer);
    expect(stopped.status).toBe('interrupted');
    expect(outputsOf(stopped.cellId)[0]).toMatchObject({
      kind: 'error',
      ename: 'KeyboardInterrupt',
    });
    const after = await run('kept');
    expect(outputsOf(after.cellId)).toEqual([
      { kind: 'result', executionCount: 3, data: { 'text/plain': '5' } },
    ]);
  }, 60_000);

  it('says so when the kernel has no Python', async () => {
    const { run, outputsOf } = startSession();
    const done = await run('print(1)');
    expect(done.status).toBe('error');
    expect(outputsOf(done.cellId)[0]).toMatchObject({ kind: 'error', ename: 'PythonUnavailable' });
  });
});
