/**
 * The rules every notebook repository follows when it writes, as pure functions so the in-memory
 * and IndexedDB repositories cannot drift apart and the rules are tested without a browser.
 *
 * Each stored notebook carries a revision (bumped by every write) and whether the user trusts
 * its code. A tab remembers the revision it last read or wrote (its "base"); a save whose base is
 * no longer current means another tab saved in between, and is refused instead of overwriting.
 */
import type { Notebook } from '../model';
import { summarize, type NotebookSummary } from '../repository';

export interface StoredNotebook {
  notebook: Notebook;
  revision: number;
  /** Absent in records written before trust existed: those read as untrusted. */
  trusted?: boolean;
}

export type ConflictReason = 'changed' | 'deleted';

export class ConflictError extends Error {
  constructor(
    readonly notebookId: string,
    readonly reason: ConflictReason = 'changed',
  ) {
    super(
      reason === 'changed'
        ? 'This notebook was changed in another tab since this tab loaded it.'
        : 'This notebook was deleted in another tab since this tab loaded it.',
    );
    this.name = 'ConflictError';
  }
}

/** What a tab hears when another tab saves or deletes a notebook. */
export interface NotebookChange {
  id: string;
  revision: number;
  deleted: boolean;
}

/** Run state (queued, running) is not part of the document; it reads back as idle. */
export function stripRuntime(notebook: Notebook): Notebook {
  return notebook.cells.every((c) => c.status === 'idle')
    ? notebook
    : { ...notebook, cells: notebook.cells.map((c) => ({ ...c, status: 'idle' as const })) };
}

/**
 * The record a save writes. `base` is the revision this tab last saw (undefined: it never read
 * this notebook). Trust is never changed by a save: only `add` and `withTrust` set it.
 */
export function recordForSave(
  current: StoredNotebook | undefined,
  base: number | undefined,
  notebook: Notebook,
): StoredNotebook {
  if (base !== undefined) {
    if (!current) throw new ConflictError(notebook.id, 'deleted');
    if (current.revision !== base) throw new ConflictError(notebook.id, 'changed');
  }
  return {
    notebook: stripRuntime(notebook),
    revision: (current?.revision ?? 0) + 1,
    trusted: current?.trusted ?? false,
  };
}

/** "Keep mine": this tab's version replaces whatever is stored, keeping the stored trust. */
export function recordForOverwrite(
  current: StoredNotebook | undefined,
  notebook: Notebook,
): StoredNotebook {
  return recordForSave(current, undefined, notebook);
}

/** A notebook new to the list (new, imported, opened from a link, a copy). */
export function recordForAdd(
  current: StoredNotebook | undefined,
  notebook: Notebook,
  trusted: boolean,
): StoredNotebook {
  // Ids are random; a collision means a caller reused one, and overwriting would lose a notebook.
  if (current) throw new Error(`A notebook with id ${notebook.id} already exists.`);
  return { notebook: stripRuntime(notebook), revision: 1, trusted };
}

/** Trust changes keep the revision: they are not an edit another tab could conflict with. */
export function withTrust(current: StoredNotebook, trusted: boolean): StoredNotebook {
  return { ...current, trusted };
}

export function summaryOf(record: StoredNotebook): NotebookSummary {
  return { ...summarize(record.notebook), trusted: record.trusted ?? false };
}

export function sortSummaries(list: NotebookSummary[]): NotebookSummary[] {
  return list.sort((a, b) => b.updatedAt - a.updatedAt || a.title.localeCompare(b.title));
}
