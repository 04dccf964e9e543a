/**
 * Where the user's notebooks live. In memory for now; the persistence issue backs the same
 * interface with IndexedDB, which is why every method is asynchronous.
 */
import type { Notebook } from './model';

/** What the home page lists: enough to show and order a notebook without loading its cells. */
export interface NotebookSummary {
  id: string;
  title: string;
  updatedAt: number;
  cellCount: number;
}

export interface NotebookRepository {
  /** Every saved notebook, most recently edited first. */
  list(): Promise<NotebookSummary[]>;
  get(id: string): Promise<Notebook | null>;
  save(notebook: Notebook): Promise<void>;
  delete(id: string): Promise<void>;
}

export function summarize(notebook: Notebook): NotebookSummary {
  return {
    id: notebook.id,
    title: notebook.title,
    updatedAt: notebook.updatedAt,
    cellCount: notebook.cells.length,
  };
}

/** Notebooks are immutable values, so keeping the saved reference is as good as a copy. */
export class InMemoryNotebookRepository implements NotebookRepository {
  private readonly notebooks = new Map<string, Notebook>();

  async list(): Promise<NotebookSummary[]> {
    return [...this.notebooks.values()]
      .map(summarize)
      .sort((a, b) => b.updatedAt - a.updatedAt || a.title.localeCompare(b.title));
  }

  async get(id: string): Promise<Notebook | null> {
    return this.notebooks.get(id) ?? null;
  }

  async save(notebook: Notebook): Promise<void> {
    this.notebooks.set(notebook.id, notebook);
  }

  async delete(id: string): Promise<void> {
    this.notebooks.delete(id);
  }
}
