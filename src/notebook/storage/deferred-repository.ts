/**
 * A repository usable at once while the real one is still opening (IndexedDB opens
 * asynchronously): every call waits for it. The app's composition root hands this out, so pages
 * never deal with the opening themselves.
 */
import type { Notebook } from '../model';
import type { NotebookRepository, NotebookSummary } from '../repository';
import type { NotebookChange } from './records';

export class DeferredRepository implements NotebookRepository {
  constructor(private readonly ready: Promise<NotebookRepository>) {}

  async list(): Promise<NotebookSummary[]> {
    return (await this.ready).list();
  }
  async get(id: string): Promise<Notebook | null> {
    return (await this.ready).get(id);
  }
  async save(notebook: Notebook): Promise<void> {
    return (await this.ready).save(notebook);
  }
  async overwrite(notebook: Notebook): Promise<void> {
    return (await this.ready).overwrite(notebook);
  }
  async add(notebook: Notebook, options: { trusted: boolean }): Promise<void> {
    return (await this.ready).add(notebook, options);
  }
  async delete(id: string): Promise<void> {
    return (await this.ready).delete(id);
  }
  async isTrusted(id: string): Promise<boolean> {
    return (await this.ready).isTrusted(id);
  }
  async setTrusted(id: string, trusted: boolean): Promise<void> {
    return (await this.ready).setTrusted(id, trusted);
  }

  onExternalChange(listener: (change: NotebookChange) => void): () => void {
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    void this.ready.then((repository) => {
      if (!cancelled) unsubscribe = repository.onExternalChange(listener);
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }
}
