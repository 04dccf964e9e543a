/**
 * The notebook repository in memory, with the same revision, conflict and trust rules as the
 * IndexedDB one (storage/records.ts). Several instances over one MemoryNotebookStore behave like
 * tabs over one database, which is how the two-tab rules are tested in Node; the app uses it
 * alone when the browser has no IndexedDB (nothing then outlives the page).
 */
import type { Notebook } from '../model';
import type { NotebookRepository, NotebookSummary } from '../repository';
import {
  recordForAdd,
  recordForOverwrite,
  recordForSave,
  sortSummaries,
  summaryOf,
  withTrust,
  type NotebookChange,
  type StoredNotebook,
} from './records';

type Listener = (change: NotebookChange, from: InMemoryNotebookRepository) => void;

/** The shared "database" of the in-memory tabs. */
export class MemoryNotebookStore {
  readonly records = new Map<string, StoredNotebook>();
  readonly listeners = new Set<Listener>();
}

export class InMemoryNotebookRepository implements NotebookRepository {
  /** The revision this tab last read or wrote, per notebook. */
  private readonly known = new Map<string, number>();

  constructor(private readonly store = new MemoryNotebookStore()) {}

  async list(): Promise<NotebookSummary[]> {
    return sortSummaries([...this.store.records.values()].map(summaryOf));
  }

  async get(id: string): Promise<Notebook | null> {
    const record = this.store.records.get(id);
    if (!record) return null;
    this.known.set(id, record.revision);
    return record.notebook;
  }

  async save(notebook: Notebook): Promise<void> {
    const current = this.store.records.get(notebook.id);
    this.write(recordForSave(current, this.known.get(notebook.id), notebook));
  }

  async overwrite(notebook: Notebook): Promise<void> {
    this.write(recordForOverwrite(this.store.records.get(notebook.id), notebook));
  }

  async add(notebook: Notebook, options: { trusted: boolean }): Promise<void> {
    this.write(recordForAdd(this.store.records.get(notebook.id), notebook, options.trusted));
  }

  async delete(id: string): Promise<void> {
    this.store.records.delete(id);
    this.known.delete(id);
    this.broadcast({ id, revision: -1, deleted: true });
  }

  async isTrusted(id: string): Promise<boolean> {
    return this.store.records.get(id)?.trusted ?? false;
  }

  async setTrusted(id: string, trusted: boolean): Promise<void> {
    const current = this.store.records.get(id);
    if (current) this.store.records.set(id, withTrust(current, trusted));
  }

  onExternalChange(listener: (change: NotebookChange) => void): () => void {
    // Like a BroadcastChannel: a tab does not hear its own messages.
    const wrapped: Listener = (change, from) => {
      if (from !== this) listener(change);
    };
    this.store.listeners.add(wrapped);
    return () => this.store.listeners.delete(wrapped);
  }

  private write(record: StoredNotebook): void {
    const { id } = record.notebook;
    this.store.records.set(id, record);
    this.known.set(id, record.revision);
    this.broadcast({ id, revision: record.revision, deleted: false });
  }

  private broadcast(change: NotebookChange): void {
    for (const listener of this.store.listeners) listener(change, this);
  }
}
