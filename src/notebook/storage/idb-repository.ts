/**
 * The user's notebooks in IndexedDB (through `idb`), so a reload, a crash or a kernel restart
 * loses nothing.
 *
 * Two tabs may have the same notebook open. Each stored notebook carries a revision; a
 * repository remembers the revision it last read or wrote, and a save whose base is no longer
 * current is refused with a ConflictError instead of silently overwriting the other tab's work
 * (the rules are in records.ts, shared with the in-memory repository). A BroadcastChannel tells
 * other tabs when a notebook changed, so they can offer to reload.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
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

export { ConflictError, type NotebookChange } from './records';

interface GpubookDB extends DBSchema {
  notebooks: { key: string; value: StoredNotebook };
  /** Kept beside the notebooks so listing does not read every cell and output. */
  summaries: { key: string; value: NotebookSummary };
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
    // Summaries written before trust existed have no flag: untrusted.
    return sortSummaries(all.map((s) => ({ ...s, trusted: s.trusted ?? false })));
  }

  async get(id: string): Promise<Notebook | null> {
    const stored = await this.db.get('notebooks', id);
    if (!stored) return null;
    this.known.set(id, stored.revision);
    return stored.notebook;
  }

  /** Saves unless another tab saved a newer revision (or deleted it) since this one last saw it. */
  async save(notebook: Notebook): Promise<void> {
    await this.write(notebook.id, (current) =>
      recordForSave(current, this.known.get(notebook.id), notebook),
    );
  }

  /** Saves this tab's version over whatever is stored (the user chose "keep mine"). */
  async overwrite(notebook: Notebook): Promise<void> {
    await this.write(notebook.id, (current) => recordForOverwrite(current, notebook));
  }

  async add(notebook: Notebook, options: { trusted: boolean }): Promise<void> {
    await this.write(notebook.id, (current) => recordForAdd(current, notebook, options.trusted));
  }

  async delete(id: string): Promise<void> {
    const tx = this.db.transaction(['notebooks', 'summaries'], 'readwrite');
    await tx.objectStore('notebooks').delete(id);
    await tx.objectStore('summaries').delete(id);
    await tx.done;
    this.known.delete(id);
    this.channel?.postMessage({ id, revision: -1, deleted: true } satisfies NotebookChange);
  }

  async isTrusted(id: string): Promise<boolean> {
    return (await this.db.get('notebooks', id))?.trusted ?? false;
  }

  async setTrusted(id: string, trusted: boolean): Promise<void> {
    const tx = this.db.transaction(['notebooks', 'summaries'], 'readwrite');
    const current = await tx.objectStore('notebooks').get(id);
    if (current) {
      const next = withTrust(current, trusted);
      await tx.objectStore('notebooks').put(next, id);
      await tx.objectStore('summaries').put(summaryOf(next), id);
    }
    await tx.done;
  }

  /**
   * Reads the stored record and writes what `next` makes of it, in one transaction, so two tabs
   * cannot both pass the revision check. `next` may throw (a conflict): nothing is written then.
   */
  private async write(
    id: string,
    next: (current: StoredNotebook | undefined) => StoredNotebook,
  ): Promise<void> {
    const tx = this.db.transaction(['notebooks', 'summaries'], 'readwrite');
    const current = await tx.objectStore('notebooks').get(id);
    let record: StoredNotebook;
    try {
      record = next(current);
    } catch (error) {
      tx.abort();
      await tx.done.catch(() => {});
      throw error;
    }
    await tx.objectStore('notebooks').put(record, id);
    await tx.objectStore('summaries').put(summaryOf(record), id);
    await tx.done;
    this.known.set(id, record.revision);
    this.channel?.postMessage({
      id,
      revision: record.revision,
      deleted: false,
    } satisfies NotebookChange);
  }
}
