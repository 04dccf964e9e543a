import { describe, expect, it } from 'vitest';
import { createCell, createNotebook, setCellSource, setTitle, type Notebook } from '../model';
import { InMemoryNotebookRepository, MemoryNotebookStore } from './memory-repository';
import {
  ConflictError,
  recordForAdd,
  recordForSave,
  stripRuntime,
  type NotebookChange,
} from './records';

/** Two tabs over one store, like two browser tabs over one IndexedDB. */
function twoTabs() {
  const store = new MemoryNotebookStore();
  return {
    store,
    a: new InMemoryNotebookRepository(store),
    b: new InMemoryNotebookRepository(store),
  };
}

const edit = (nb: Notebook, source: string, now: number): Notebook => ({
  ...setCellSource(nb, nb.cells[0].id, source),
  updatedAt: now,
});

describe('revision rules', () => {
  it('a save based on the stored revision bumps it; a stale base is a conflict', () => {
    const nb = createNotebook({ now: 1 });
    const first = recordForAdd(undefined, nb, true);
    expect(first).toMatchObject({ revision: 1, trusted: true });
    const second = recordForSave(first, 1, edit(nb, 'x = 1', 2));
    expect(second.revision).toBe(2);
    expect(second.trusted).toBe(true); // a save never changes trust
    expect(() => recordForSave(second, 1, nb)).toThrow(ConflictError);
    const error = (() => {
      try {
        recordForSave(undefined, 2, nb);
      } catch (e) {
        return e as ConflictError;
      }
    })();
    expect(error?.reason).toBe('deleted');
  });

  it('never writes run state, and refuses to add over an existing id', () => {
    const cell = { ...createCell('code', 'a'), status: 'running' as const };
    const nb = createNotebook({ cells: [cell] });
    expect(stripRuntime(nb).cells[0].status).toBe('idle');
    expect(recordForAdd(undefined, nb, false).notebook.cells[0].status).toBe('idle');
    expect(() => recordForAdd(recordForAdd(undefined, nb, false), nb, false)).toThrow(
      /already exists/,
    );
  });
});

describe('in-memory repository (two tabs)', () => {
  it('lists most recently edited first, with trust, and reads back what was saved', async () => {
    const { a } = twoTabs();
    const older = createNotebook({ title: 'older', now: 10 });
    const newer = createNotebook({ title: 'newer', now: 20 });
    await a.add(older, { trusted: true });
    await a.add(newer, { trusted: false });
    expect((await a.list()).map((s) => [s.title, s.trusted, s.cellCount])).toEqual([
      ['newer', false, 1],
      ['older', true, 1],
    ]);
    await a.save(edit(older, 'print(1)', 30));
    expect((await a.list())[0].title).toBe('older');
    expect((await a.get(older.id))?.cells[0].source).toBe('print(1)');
  });

  it('a tab saving over a newer save of another tab gets a ConflictError, not a silent overwrite', async () => {
    const { a, b, store } = twoTabs();
    const nb = createNotebook({ now: 1 });
    await a.add(nb, { trusted: true });
    const inB = (await b.get(nb.id)) as Notebook;
    await a.save(edit(nb, 'from a', 2));
    await expect(b.save(edit(inB, 'from b', 3))).rejects.toMatchObject({
      name: 'ConflictError',
      reason: 'changed',
    });
    expect((await a.get(nb.id))?.cells[0].source).toBe('from a');
    // "Reload theirs": reading again makes b's next save legal.
    const reloaded = (await b.get(nb.id)) as Notebook;
    await b.save(edit(reloaded, 'b after reload', 4));
    const reader = new InMemoryNotebookRepository(store); // a third tab, so a's base stays old
    expect((await reader.get(nb.id))?.cells[0].source).toBe('b after reload');
    // ...and now a is the stale one.
    await expect(a.save(edit(nb, 'stale a', 5))).rejects.toBeInstanceOf(ConflictError);
    // "Overwrite" is explicit, and keeps the stored trust.
    await a.overwrite(edit(nb, 'forced', 6));
    expect((await b.get(nb.id))?.cells[0].source).toBe('forced');
    expect(await b.isTrusted(nb.id)).toBe(true);
  });

  it('a notebook deleted in another tab is a "deleted" conflict for the tab that has it open', async () => {
    const { a, b } = twoTabs();
    const nb = createNotebook();
    await a.add(nb, { trusted: false });
    await b.get(nb.id);
    await a.delete(nb.id);
    await expect(b.save(setTitle(nb, 'x'))).rejects.toMatchObject({ reason: 'deleted' });
    expect(await b.list()).toEqual([]);
  });

  it('tells other tabs (not itself) about saves and deletions', async () => {
    const { a, b } = twoTabs();
    const heardByA: NotebookChange[] = [];
    const heardByB: NotebookChange[] = [];
    a.onExternalChange((c) => heardByA.push(c));
    const stop = b.onExternalChange((c) => heardByB.push(c));
    const nb = createNotebook();
    await a.add(nb, { trusted: true });
    await a.save(setTitle(nb, 'renamed'));
    await a.delete(nb.id);
    expect(heardByA).toEqual([]);
    expect(heardByB).toEqual([
      { id: nb.id, revision: 1, deleted: false },
      { id: nb.id, revision: 2, deleted: false },
      { id: nb.id, revision: -1, deleted: true },
    ]);
    stop();
    await a.add(createNotebook(), { trusted: true });
    expect(heardByB).toHaveLength(3);
  });

  it('trust is per stored notebook, survives saves and does not count as an edit', async () => {
    const { a, b } = twoTabs();
    const nb = createNotebook();
    await a.add(nb, { trusted: false });
    await b.get(nb.id);
    expect(await a.isTrusted(nb.id)).toBe(false);
    await a.setTrusted(nb.id, true);
    // b's base revision is still current: trusting in a did not make b's save conflict.
    await b.save(setTitle(nb, 'b saves'));
    expect(await a.isTrusted(nb.id)).toBe(true);
    expect((await a.list())[0].trusted).toBe(true);
    expect(await a.isTrusted('missing')).toBe(false);
  });
});
