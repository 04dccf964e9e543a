import { afterEach, describe, expect, it } from 'vitest';
import type { CellLanguage } from '../../kernel/protocol';
import { createCell, createNotebook, type Cell, type Notebook } from '../model';
import { InMemoryNotebookRepository } from '../storage/memory-repository';
import { startAutosave } from './autosave';
import { insertCellNextTo, runAndAdvance, runAndInsertBelow } from './commands';
import { createAppStore, type AppStore } from './createAppStore';
import { KERNEL_RESET_MESSAGE, MAX_CRASHES_BEFORE_READY } from './kernelSlice';
import { ScriptedKernel } from '../../kernel/testing/scripted-worker';

/** Lets promise callbacks (execute resolutions) run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

interface Harness {
  store: AppStore;
  kernels: ScriptedKernel[];
  kernel(): ScriptedKernel;
  clock: { now: number };
  cell(index: number): Cell;
}

function setup(cells: Cell[], language: CellLanguage = 'typescript'): Harness {
  const kernels: ScriptedKernel[] = [];
  const clock = { now: 1000 };
  const store = createAppStore({
    createKernel: () => {
      const kernel = new ScriptedKernel();
      kernels.push(kernel);
      return kernel.client;
    },
    now: () => clock.now,
  });
  store.getState().openNotebook(createNotebook({ cells, now: 500, language }), { trusted: true });
  return {
    store,
    kernels,
    kernel: () => kernels[kernels.length - 1],
    clock,
    cell: (index) => (store.getState().notebook as Notebook).cells[index],
  };
}

const code = (source: string) => createCell('code', source);
const statuses = (h: Harness) => h.store.getState().notebook?.cells.map((c) => c.status);
const stdout = (text: string) => ({ kind: 'stream' as const, name: 'stdout' as const, text });

let harness: Harness | null = null;
afterEach(() => {
  harness?.store.getState().stopKernel();
  harness = null;
});

describe('running cells', () => {
  it('runs all code cells in order, one at a time, counting from 1', async () => {
    const h = (harness = setup([code('a'), createCell('markdown', '# t'), code('b'), code('c')]));
    h.store.getState().setMarkdownEditing(h.cell(1).id, true);
    h.store.getState().runAll();
    const k = h.kernel();
    expect(h.store.getState().kernelState).toBe('starting');
    expect(k.executed).toEqual([]); // the client waits for the worker
    expect(statuses(h)).toEqual(['queued', 'idle', 'queued', 'queued']);
    expect(h.store.getState().markdownEditing).toEqual({}); // running markdown renders it

    k.ready('cpu');
    expect(k.executed.map((e) => e.code)).toEqual(['a']);
    expect(h.store.getState().kernelInfo?.backend).toBe('cpu');
    expect(h.store.getState().kernelState).toBe('busy');
    k.startRunning();
    expect(statuses(h)).toEqual(['running', 'idle', 'queued', 'queued']);
    k.finish([stdout('1\n')]);
    await settle();
    expect(k.executed.map((e) => [e.code, e.executionCount])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(h.store.getState().kernelState).toBe('busy');
    k.finish([{ kind: 'result', executionCount: 2, data: { 'text/plain': '7' } }]);
    await settle();
    k.finish([]);
    await settle();

    expect(statuses(h)).toEqual(['done', 'idle', 'done', 'done']);
    expect(h.store.getState().notebook?.cells.map((c) => c.executionCount)).toEqual([
      1,
      null,
      2,
      3,
    ]);
    expect(h.cell(0).outputs).toEqual([stdout('1\n')]);
    expect(h.store.getState().kernelState).toBe('idle');
  });

  it('stops Run all at the first error: later cells go back to idle, counts stay gapless', async () => {
    const h = (harness = setup([code('a'), code('b'), code('c'), code('d')]));
    const s = h.store.getState();
    s.runAll();
    const k = h.kernel();
    k.ready();
    k.finish([]);
    await settle();
    k.finish(
      [{ kind: 'error', ename: 'TypeError', evalue: 'boom', traceback: ['at line 1'] }],
      'error',
    );
    await settle();
    expect(statuses(h)).toEqual(['done', 'error', 'idle', 'idle']);
    expect(k.executed.map((e) => e.code)).toEqual(['a', 'b']);
    expect(h.cell(1).executionCount).toBe(2);
    expect(h.store.getState().kernelState).toBe('idle');

    s.runCell(h.cell(3).id);
    expect(k.executed[2]).toMatchObject({ code: 'd', executionCount: 3 });
  });

  it('sends the source as it was when the run was asked for', async () => {
    const h = (harness = setup([code('slow()'), code('x = 1')]));
    const s = h.store.getState();
    s.runAll();
    h.kernel().ready();
    s.setCellSource(h.cell(1).id, 'x = 2');
    h.kernel().finish([]);
    await settle();
    expect(h.kernel().executed[1].code).toBe('x = 1');
  });

  it("sends the notebook's language with each run", async () => {
    const python = (harness = setup([code('print(1)'), code('x = 2')], 'python'));
    python.store.getState().runAll();
    python.kernel().ready();
    python.kernel().finish([]);
    await settle();
    expect(python.kernel().executed.map((e) => e.language)).toEqual(['python', 'python']);
    python.store.getState().stopKernel();
    const ts = (harness = setup([code('print(1)')]));
    ts.store.getState().runAll();
    ts.kernel().ready();
    expect(ts.kernel().executed.map((e) => e.language)).toEqual(['typescript']);
  });

  it('does not queue a cell twice', () => {
    const h = (harness = setup([code('a'), code('b')]));
    const s = h.store.getState();
    s.runCell(h.cell(1).id);
    s.runCell(h.cell(0).id);
    s.runCell(h.cell(0).id);
    s.runAll();
    h.kernel().ready();
    expect(h.kernel().executed.map((e) => e.code)).toEqual(['b']);
    expect(statuses(h)).toEqual(['queued', 'queued']);
  });

  it('runs every cell above, not the cell itself', async () => {
    const h = (harness = setup([code('a'), code('b'), code('c')]));
    h.store.getState().runAllAbove(h.cell(2).id);
    const k = h.kernel();
    k.ready();
    k.finish([]);
    await settle();
    k.finish([]);
    await settle();
    expect(k.executed.map((e) => e.code)).toEqual(['a', 'b']);
    expect(statuses(h)).toEqual(['done', 'done', 'idle']);
  });

  it('writes streamed outputs, coalesced, and live display updates into the cell', () => {
    const h = (harness = setup([code('loop')]));
    h.store.getState().runCell(h.cell(0).id);
    const k = h.kernel();
    k.ready();
    k.startRunning();
    k.output([stdout('epoch 1\n')]);
    k.output([
      stdout('epoch 2\n'),
      { kind: 'display', displayId: 'bar', data: { 'text/plain': '0/3' } },
    ]);
    k.updateDisplay('bar', { 'text/plain': '2/3' });
    expect(h.cell(0).outputs).toEqual([
      stdout('epoch 1\nepoch 2\n'),
      { kind: 'display', displayId: 'bar', data: { 'text/plain': '2/3' } },
    ]);
  });

  it('says how many outputs the kernel dropped', async () => {
    const h = (harness = setup([code('spam')]));
    h.store.getState().runCell(h.cell(0).id);
    h.kernel().ready();
    h.kernel().finish([stdout('x\n')], 'ok', 1234);
    const outputs = h.cell(0).outputs;
    expect(outputs).toHaveLength(2);
    expect(outputs[1]).toMatchObject({ kind: 'stream', name: 'stderr' });
    expect(outputs[1].kind === 'stream' && outputs[1].text).toContain('1234 more outputs');
  });
});

describe('interrupt, restart and crashes', () => {
  it('interrupt drops queued cells and asks the kernel to stop the running one', async () => {
    const h = (harness = setup([code('a'), code('b'), code('c')]));
    const s = h.store.getState();
    s.runAll();
    const k = h.kernel();
    k.ready();
    k.startRunning();
    s.interrupt();
    expect(k.interrupts).toBe(1);
    expect(statuses(h)).toEqual(['running', 'idle', 'idle']);
    k.finish(
      [{ kind: 'error', ename: 'KeyboardInterrupt', evalue: 'interrupted', traceback: [] }],
      'interrupted',
    );
    await settle();
    expect(statuses(h)).toEqual(['error', 'idle', 'idle']);
    expect(k.executed).toHaveLength(1);
  });

  it('a hard interrupt marks the cell as error, shows the notice and counts from 1 again', async () => {
    const h = (harness = setup([code('a'), code('while(true){}'), code('c')]));
    const s = h.store.getState();
    s.runAll();
    const k = h.kernel();
    k.ready();
    k.finish([]);
    await settle();
    k.startRunning();
    s.interrupt(); // the worker never answers: after hardInterruptAfterMs it is replaced
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statuses(h)).toEqual(['done', 'error', 'idle']);
    expect(h.cell(1).outputs).toEqual([
      {
        kind: 'error',
        ename: 'KeyboardInterrupt',
        evalue: 'The cell did not stop when interrupted, so the kernel was restarted.',
        traceback: [],
      },
    ]);
    expect(h.store.getState().kernelNotice?.message).toBe(KERNEL_RESET_MESSAGE);
    expect(h.store.getState().kernelNotice?.reason).toBe('interrupt');
    expect(h.store.getState().kernelState).toBe('starting');

    k.ready();
    s.runCell(h.cell(2).id);
    expect(k.executed[2]).toMatchObject({ code: 'c', executionCount: 1 });
  });

  it('restart puts the running cell back to idle and shows the notice', async () => {
    const h = (harness = setup([code('a'), code('b')]));
    const s = h.store.getState();
    s.runAll();
    const k = h.kernel();
    k.ready();
    k.startRunning();
    s.restart();
    await settle();
    expect(statuses(h)).toEqual(['idle', 'idle']);
    expect(h.cell(0).outputs).toEqual([]);
    expect(h.store.getState().kernelNotice).toMatchObject({
      reason: 'restart',
      message: 'Kernel restarted: variables from earlier cells are gone',
    });
    s.dismissKernelNotice();
    expect(h.store.getState().kernelNotice).toBeNull();
  });

  it('gives up on a worker that keeps crashing before it is ready', async () => {
    const h = (harness = setup([code('a')]));
    h.store.getState().startKernel();
    const k = h.kernel();
    for (let i = 0; i < MAX_CRASHES_BEFORE_READY - 1; i++) k.crash();
    await settle();
    expect(k.disposed).toBe(false);
    k.crash();
    await settle();
    expect(k.disposed).toBe(true);
    expect(h.store.getState().kernelState).toBe('dead');
    expect(h.store.getState().kernelNotice?.reason).toBe('failed');

    h.store.getState().restart(); // tries again with a new client
    expect(h.kernels).toHaveLength(2);
    expect(h.store.getState().kernelState).toBe('starting');
  });

  it('crashes that each follow a ready kernel are not counted against it', async () => {
    const h = (harness = setup([code('a')]));
    h.store.getState().startKernel();
    const k = h.kernel();
    for (let i = 0; i < MAX_CRASHES_BEFORE_READY + 2; i++) {
      k.ready();
      k.crash();
    }
    await settle();
    expect(k.disposed).toBe(false);
  });
});

describe('document edits', () => {
  it('edits and outputs move updatedAt; status changes alone do not', async () => {
    const h = (harness = setup([code('a')]));
    const s = h.store.getState();
    expect(h.store.getState().notebook?.updatedAt).toBe(500);
    h.clock.now = 2000;
    s.setCellSource(h.cell(0).id, 'print(1)');
    expect(h.store.getState().notebook?.updatedAt).toBe(2000);
    h.clock.now = 3000;
    s.runCell(h.cell(0).id); // queueing clears outputs: a document change
    expect(h.store.getState().notebook?.updatedAt).toBe(3000);
    h.clock.now = 4000;
    h.kernel().ready();
    h.kernel().startRunning();
    expect(h.store.getState().notebook?.updatedAt).toBe(3000);
    h.kernel().output([stdout('1\n')]);
    expect(h.store.getState().notebook?.updatedAt).toBe(4000);
  });

  it('moves cells by one place and ignores moves past the ends', () => {
    const h = (harness = setup([code('a'), code('b'), code('c')]));
    const s = h.store.getState();
    const [a, b, c] = [0, 1, 2].map((i) => h.cell(i).id);
    s.moveCellBy(a, 1);
    s.moveCellBy(c, -1);
    expect(h.store.getState().notebook?.cells.map((x) => x.id)).toEqual([b, c, a]);
    const before = h.store.getState().notebook;
    s.moveCellBy(b, -1);
    expect(h.store.getState().notebook).toBe(before);
  });
});

describe('commands', () => {
  it('Shift+Enter on the last cell runs it and moves into a new code cell', () => {
    const h = (harness = setup([code('a')]));
    runAndAdvance(h.store, h.cell(0).id);
    h.kernel().ready();
    const state = h.store.getState();
    expect(state.notebook?.cells).toHaveLength(2);
    expect(h.cell(1).type).toBe('code');
    expect(state.focusRequest?.cellId).toBe(h.cell(1).id);
    expect(state.activeCellId).toBe(h.cell(1).id);
    expect(h.kernel().executed.map((e) => e.code)).toEqual(['a']);
  });

  it('Shift+Enter in the middle moves to the next cell without adding one', () => {
    const h = (harness = setup([code('a'), code('b')]));
    runAndAdvance(h.store, h.cell(0).id);
    expect(h.store.getState().notebook?.cells).toHaveLength(2);
    expect(h.store.getState().focusRequest?.cellId).toBe(h.cell(1).id);
  });

  it('Alt+Enter inserts a code cell right below and focuses it', () => {
    const h = (harness = setup([code('a'), code('b')]));
    runAndInsertBelow(h.store, h.cell(0).id);
    expect(h.store.getState().notebook?.cells.map((c) => c.source)).toEqual(['a', '', 'b']);
    expect(h.store.getState().focusRequest?.cellId).toBe(h.cell(1).id);
  });

  it('a new markdown cell opens in edit mode, above or below', () => {
    const h = (harness = setup([code('a')]));
    const above = insertCellNextTo(h.store, h.cell(0).id, 'above', 'markdown');
    expect(h.cell(0).id).toBe(above);
    expect(h.store.getState().markdownEditing[above]).toBe(true);
    const end = insertCellNextTo(h.store, null, 'below', 'code');
    expect(h.cell(2).id).toBe(end);
  });
});

describe('autosave', () => {
  it('saves after changes and at close; the list is most recently edited first', async () => {
    const repository = new InMemoryNotebookRepository();
    const older = createNotebook({ title: 'older', now: 10 });
    await repository.save(older);
    const h = (harness = setup([code('a')]));
    const autosave = startAutosave(h.store, repository, { delayMs: 60_000 });
    h.clock.now = 5000;
    h.store.getState().setTitle('fresh');
    expect((await repository.list()).map((n) => n.title)).toEqual(['older']); // not yet
    h.store.getState().closeNotebook();
    await settle();
    const list = await repository.list();
    expect(list.map((n) => [n.title, n.updatedAt])).toEqual([
      ['fresh', 5000],
      ['older', 10],
    ]);
    autosave.stop();
  });
});
