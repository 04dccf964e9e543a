import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCell, createNotebook, type Notebook } from '../model';
import { InMemoryNotebookRepository, MemoryNotebookStore } from '../storage/memory-repository';
import { ConflictError, type NotebookChange } from '../storage/records';
import { startAutosave, type Autosave } from './autosave';
import { createAppStore, type AppStore } from './createAppStore';
import { ScriptedKernel } from '../../kernel/testing/scripted-worker';

let clock = 1000;
let autosave: Autosave | null = null;

beforeEach(() => {
  vi.useFakeTimers();
  clock = 1000;
});
afterEach(() => {
  autosave?.stop();
  autosave = null;
  vi.useRealTimers();
});

async function setup() {
  const db = new MemoryNotebookStore();
  const tab = new InMemoryNotebookRepository(db);
  const otherTab = new InMemoryNotebookRepository(db);
  /** Every write this tab makes, as the other tab hears it. */
  const writes: NotebookChange[] = [];
  otherTab.onExternalChange((c) => writes.push(c));
  const notebook = createNotebook({ cells: [createCell('code', 'a')], now: 500 });
  await otherTab.add(notebook, { trusted: true });
  const store = createAppStore({
    createKernel: () => new ScriptedKernel().client,
    now: () => clock,
  });
  const errors: unknown[] = [];
  autosave = startAutosave(store, tab, { delayMs: 500, onError: (e) => errors.push(e) });
  store.getState().openNotebook((await tab.get(notebook.id)) as Notebook, { trusted: true });
  return { store, tab, otherTab, writes, errors, notebook };
}

const source = (store: AppStore) => store.getState().notebook?.cells[0].source;
const cellId = (store: AppStore) => (store.getState().notebook as Notebook).cells[0].id;

describe('autosave', () => {
  it('opening a notebook, or only changing run state, writes nothing', async () => {
    const { store, writes } = await setup();
    store.getState().changeNotebook((nb) => ({ ...nb, cells: [] }), { touch: false });
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes).toEqual([]);
  });

  it('saves a burst of edits once, within the delay, with the latest text', async () => {
    const { store, otherTab, writes, notebook } = await setup();
    clock = 2000;
    store.getState().setCellSource(cellId(store), 'x');
    clock = 2100;
    store.getState().setCellSource(cellId(store), 'xy');
    clock = 2200;
    store.getState().setCellSource(cellId(store), 'xyz');
    await vi.advanceTimersByTimeAsync(499);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([{ id: notebook.id, revision: 2, deleted: false }]);
    const saved = (await otherTab.get(notebook.id)) as Notebook;
    expect(saved.cells[0].source).toBe('xyz');
    expect(saved.updatedAt).toBe(2200);
  });

  it('saves at once when the notebook closes', async () => {
    const { store, otherTab, notebook } = await setup();
    clock = 3000;
    store.getState().setTitle('closing');
    store.getState().closeNotebook();
    await vi.advanceTimersByTimeAsync(0);
    expect((await otherTab.get(notebook.id))?.title).toBe('closing');
  });

  it("another tab saved first: reports a ConflictError and keeps this tab's text in the store", async () => {
    const { store, otherTab, errors, notebook } = await setup();
    const theirs = (await otherTab.get(notebook.id)) as Notebook;
    await otherTab.save({ ...theirs, title: 'theirs', updatedAt: 1500 });
    clock = 2000;
    store.getState().setCellSource(cellId(store), 'mine');
    await autosave?.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ConflictError);
    expect(source(store)).toBe('mine');
    expect((await otherTab.get(notebook.id))?.title).toBe('theirs');
    expect((await otherTab.get(notebook.id))?.cells[0].source).toBe('a');
  });

  it('discard drops the pending save (the store is about to show the other version)', async () => {
    const { store, writes } = await setup();
    clock = 2000;
    store.getState().setCellSource(cellId(store), 'not kept');
    autosave?.discard();
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes).toEqual([]);
  });
});
