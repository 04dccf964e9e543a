/**
 * The user's notebooks in IndexedDB (through `idb`), so a reload, a crash or a kernel restart
 * loses nothing.
 *
 * Two tabs may have the same notebook open. Each stored notebook carries a revision; a
 * repository remembers the revision it last read or wrote, and a save whose base is no longer
 * current is refused with a ConflictError instead of silently overwriting the other tab's work.
 * A BroadcastChannel tells other tabs when a notebook changed, so they can offer to reload.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Notebook } from '../model';
import { summarize, type NotebookRepository, type NotebookSummary } from '../repository';

interface StoredNotebook {
  notebook: Notebook;
  revision: number;
}

interface GpubookDB extends DBSchema {
  notebooks: { key: string; value: StoredNotebook };
  summaries: { key: string; value: NotebookSummary };
}

export class ConflictError extends Error {
  constructor(readonly notebookId: string) {
    super('This notebook was changed in another tab since this tab loaded it.');
    this.name = 'ConflictError';
  }
}

export interface NotebookChange {
  id: string;
  revision: number;
  deleted: boolean;
}

const DB_NAME = 'gpubook';
const CHANNEL = 'gpubook-notebooks';

export class IndexedDbNotebookRepository implements NotebookRepository {
  private readonly known = new Map<string, number>();
  private readonly channel: BroadcastChannel | null =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;

  private constructor(private readonly db: IDBPDatabase<GpubookDB>) {}

  static async open(name = DB_NAME): Promise<IndexedDbNotebookRepository> {
    const db = await openDB<GpubookDB>(name, 1, {
      upgrade(database) {
        database.createObjectStore('notebooks');
        database.createObjectStore('summaries');
      },
    });
    return new IndexedDbNotebookRepository(db);
  }

  /** Calls `listener` when another tab saves or deletes a notebook. */
  onExternalChange(listener: (change: NotebookChange) => void): () => void {
    if (!this.channel) return () => {};
    const handler = (event: MessageEvent<NotebookChange>) => listener(event.data);
    this.channel.addEventListener('message', handler);
    return () => this.channel?.removeEventListener('message', handler);
  }

  async list(): Promise<NotebookSummary[]> {
    const all = await this.db.getAll('summaries');
    return all.sort((a, b) => b.updatedAt - a.updatedAt || a.title.localeCompare(b.title));
  }

  async get(id: string): Promise<Notebook | null> {
    const stored = await this.db.get('notebooks', id);
    if (!stored) return null;
    this.known.set(id, stored.revision);
    return stored.notebook;
  }

  /** Saves unless another tab saved a newer revision since this one last read or wrote. */
  async save(notebook: Notebook): Promise<void> {
    const tx = this.db.transaction(['notebooks', 'summaries'], 'readwrite');
    const current = await tx.objectStore('notebooks').get(notebook.id);
    const base = this.known.get(notebook.id);
    if (current && base !== undefined && current.revision !== base) {
      tx.abort();
      await tx.done.catch(() => {});
      throw new ConflictError(notebook.id);
    }
    const revision = (current?.revision ?? 0) + 1;
    await tx.objectStore('notebooks').put({ notebook: stripRuntime(notebook), revision }, notebook.id);
    await tx.objectStore('summaries').put(summarize(notebook), notebook.id);
    await tx.done;
    this.known.set(notebook.id, revision);
    this.channel?.postMessage({ id: notebook.id, revision, deleted: false } satisfies NotebookChange);
  }

  /** Saves this tab's version over whatever is stored (the user chose "keep mine"). */
  async overwrite(notebook: Notebook): Promise<void> {
    this.known.delete(notebook.id);
    await this.save(notebook);
  }

  async delete(id: string): Promise<void> {
    const tx = this.db.transaction(['notebooks', 'summaries'], 'readwrite');
    await tx.objectStore('notebooks').delete(id);
    await tx.objectStore('summaries').delete(id);
    await tx.done;
    this.known.delete(id);
    this.channel?.postMessage({ id, revision: -1, deleted: true } satisfies NotebookChange);
  }
}

/** Run state (queued, running) is not part of the document; it reads back as idle. */
function stripRuntime(notebook: Notebook): Notebook {
  return {
    ...notebook,
    cells: notebook.cells.map((c) => (c.status === 'idle' ? c : { ...c, status: 'idle' })),
  };
}
