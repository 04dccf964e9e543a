import { describe, expect, it } from 'vitest';
import { registerTextFormatter } from './display';
import { startTestSession } from './testing/session-harness';
import type { CellOutput } from './protocol';

class Slow {
  constructor(readonly label: string) {}
}
// An output that takes time to compute (as a GPU tensor's values do) must keep its place.
registerTextFormatter((value) =>
  value instanceof Slow
    ? new Promise<string>((resolve) => setTimeout(() => resolve(`slow:${value.label}`), 20))
    : null,
);

function startSession() {
  return startTestSession(async () => ({
    info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
    globals: { Slow },
  }));
}

const textOf = (outputs: CellOutput[]) =>
  outputs
    .map((o) =>
      o.kind === 'stream'
        ? o.text
        : o.kind === 'error'
          ? `${o.ename}: ${o.evalue}`
          : o.data['text/plain'],
    )
    .join('');

describe('kernel session', () => {
  it('says it is ready and exposes params', async () => {
    const k = startSession();
    const { cellId, done } = k.run('print(params.size)');
    expect((await done).status).toBe('ok');
    expect(k.events[0]).toMatchObject({ type: 'ready', info: { backend: 'cpu' } });
    expect(textOf(k.outputsOf(cellId))).toBe('test\n');
  });

  it('keeps outputs in call order even when one is slow to format', async () => {
    const k = startSession();
    const { cellId, done } = k.run('print("a"); print(new Slow("b")); console.log("c"); 6 * 7');
    await done;
    const outputs = k.outputsOf(cellId);
    expect(textOf(outputs)).toBe('a\nslow:b\nc\n42');
    expect(outputs[outputs.length - 1]).toMatchObject({ kind: 'result', executionCount: 1 });
  });

  it('reports an error with its cell line and stays usable', async () => {
    const k = startSession();
    const bad = k.run('const x = 1;\nnull.boom;');
    expect((await bad.done).status).toBe('error');
    const [error] = k.outputsOf(bad.cellId);
    expect(error).toMatchObject({ kind: 'error', ename: 'TypeError' });
    expect((error as { traceback: string[] }).traceback.join()).toContain('line 2');
    const next = k.run('x + 1');
    expect((await next.done).status).toBe('ok');
    expect(textOf(k.outputsOf(next.cellId))).toBe('2');
  });

  it('shows a table for an array of records', async () => {
    const k = startSession();
    const { cellId, done } = k.run('[{ epoch: 1, loss: 0.5 }, { epoch: 2, loss: 0.25 }]');
    await done;
    const [result] = k.outputsOf(cellId);
    expect(result.kind === 'result' && result.data['application/vnd.gpubook.table+json']).toEqual({
      columns: ['epoch', 'loss'],
      rows: [
        [1, 0.5],
        [2, 0.25],
      ],
    });
  });

  it('interrupts a cell that awaits forever and runs the next one', async () => {
    const k = startSession();
    const stuck = k.run('await new Promise(() => {});');
    await new Promise((r) => setTimeout(r, 20));
    k.session.handle({ type: 'interrupt' });
    expect((await stuck.done).status).toBe('interrupted');
    const next = k.run('"after"');
    expect((await next.done).status).toBe('ok');
  });

  it('caps a flood of outputs and says how many were dropped', async () => {
    const k = startSession();
    const { cellId, done } = k.run('for (let i = 0; i < 5000; i++) display(i);');
    const event = await done;
    expect(event.droppedOutputs).toBe(3000);
    expect(textOf(k.outputsOf(cellId))).toContain('3000 more outputs were not kept');
  });

  it('charges a rejected promise nobody awaited to the running cell', async () => {
    const k = startSession();
    const { cellId, done } = k.run('Promise.reject(new Error("lost")); print("still ran");');
    // Node reports it through process events; the worker uses `unhandledrejection`.
    const onRejection = (reason: unknown) => k.session.reportUnhandled(reason);
    process.once('unhandledRejection', onRejection);
    const event = await done;
    expect(event.status).toBe('error');
    expect(textOf(k.outputsOf(cellId))).toContain('lost (in a promise nobody awaited)');
  });
});

describe('printing callable instances', () => {
  it('shows a callable object as an object, not as a function', async () => {
    const k = startSession();
    const { cellId, done } = k.run(
      'class Layer { constructor() { const f = () => 1; Object.setPrototypeOf(f, new.target.prototype); (f as any).units = 4; return f as any; } }\nprint(new Layer(), () => 2)',
    );
    await done;
    expect(textOf(k.outputsOf(cellId))).toBe('Layer { units: 4 } [Function: anonymous]\n');
  });
});
