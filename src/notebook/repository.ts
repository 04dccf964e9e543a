/**
 * Where the user's notebooks live: the interface the app talks to. IndexedDB backs it in the
 * browser (storage/idb-repository.ts); an in-memory version (storage/memory-repository.ts) keeps
 * the same rules for tests and for browsers without IndexedDB.
 */
import type { Notebook } from './model';
import type { NotebookChange } from './storage/records';

/** What the home page lists: enough to show and order a notebook without loading its cells. */
export interface NotebookSummary {
  id: string;
  title: string;
  updatedAt: number;
  cellCount: number;
  /** Whether the user lets its code run without asking (see trust.ts). */
  trusted: boolean;
}

export interface NotebookRepository {
  /** Every saved notebook, most recently edited first. */
  list(): Promise<NotebookSummary[]>;
  get(id: string): Promise<Notebook | null>;
  /**
   * Saves edits to a notebook this tab read or wrote before. Throws a ConflictError when another
   * tab saved or deleted it since, so nothing is overwritten silently.
   */
  save(notebook: Notebook): Promise<void>;
  /** Saves this tab's version over whatever is stored (only when the user chose so). */
  overwrite(notebook: Notebook): Promise<void>;
  /** Adds a notebook new to the list; `trusted` records where it came from (see trust.ts). */
  add(notebook: Notebook, options: { trusted: boolean }): Promise<void>;
  delete(id: string): Promise<void>;
  isTrusted(id: string): Promise<boolean>;
  setTrusted(id: string, trusted: boolean): Promise<void>;
  /** Calls `listener` when another tab saves or deletes a notebook; returns an unsubscribe. */
  onExternalChange(listener: (change: NotebookChange) => void): () => void;
}

export function summarize(notebook: Notebook): Omit<NotebookSummary, 'trusted'> {
  return {
    id: notebook.id,
    title: notebook.title,
    updatedAt: notebook.updatedAt,
    cellCount: notebook.cells.length,
  };
}
