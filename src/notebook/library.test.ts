import { describe, expect, it } from 'vitest';
import { duplicateNotebook, renameNotebook, saveAsCopy } from './library';
import { createCell, createNotebook, type Notebook } from './model';
import { InMemoryNotebookRepository } from './storage/memory-repository';

function sample(title: string): Notebook {
  const code = createCell('code', 'const x = 2;\nx * 21');
  code.outputs = [{ kind: 'result', executionCount: 1, data: { 'text/plain': '42' } }];
  code.executionCount = 1;
  return createNotebook({ title, cells: [createCell('markdown', '# Hi'), code], now: 100 });
}

describe('notebook list operations', () => {
  it('duplicates under a new id with cells, outputs and trust, leaving the source alone', async () => {
    const repo = new InMemoryNotebookRepository();
    const trusted = sample('Mine');
    const untrusted = sample('From a link');
    await repo.add(trusted, { trusted: true });
    await repo.add(untrusted, { trusted: false });

    const copy = (await duplicateNotebook(repo, trusted.id, 500)) as Notebook;
    expect(copy.id).not.toBe(trusted.id);
    expect(copy.title).toBe('Copy of Mine');
    expect(copy.cells).toEqual(trusted.cells);
    expect(await repo.isTrusted(copy.id)).toBe(true);

    const copy2 = (await duplicateNotebook(repo, untrusted.id, 600)) as Notebook;
    expect(await repo.isTrusted(copy2.id)).toBe(false);
    expect((await repo.list()).map((s) => s.title)).toEqual([
      'Copy of From a link',
      'Copy of Mine',
      'From a link', // same time: by title
      'Mine',
    ]);
    expect(await duplicateNotebook(repo, 'gone')).toBeNull();
  });

  it('renames (blank becomes "Untitled notebook") and moves it to the top', async () => {
    const repo = new InMemoryNotebookRepository();
    const a = sample('a');
    const b = { ...sample('b'), updatedAt: 200 };
    await repo.add(a, { trusted: true });
    await repo.add(b, { trusted: true });
    await renameNotebook(repo, a.id, '  Training log  ', 300);
    expect((await repo.list()).map((s) => [s.title, s.updatedAt])).toEqual([
      ['Training log', 300],
      ['b', 200],
    ]);
    await renameNotebook(repo, a.id, '   ', 400);
    expect((await repo.get(a.id))?.title).toBe('Untitled notebook');
  });

  it('"keep mine" saves this tab\'s version as a new notebook beside the stored one', async () => {
    const repo = new InMemoryNotebookRepository();
    const nb = sample('Shared work');
    await repo.add(nb, { trusted: false });
    const mine = { ...nb, cells: nb.cells.slice(1) };
    const copy = await saveAsCopy(repo, mine, true, 900);
    expect(copy.title).toBe('Shared work (my copy)');
    expect((await repo.get(copy.id))?.cells).toEqual(mine.cells);
    expect((await repo.get(nb.id))?.cells).toHaveLength(2);
    expect(await repo.isTrusted(copy.id)).toBe(true);
  });
});
