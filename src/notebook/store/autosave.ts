/**
 * Saves the open notebook to the repository shortly after it changes, and at once when it
 * closes, so the home list is current and a burst of outputs is one save, not hundreds.
 */
import type { Notebook } from '../model';
import type { NotebookRepository } from '../repository';
import type { AppStore } from './createAppStore';

export interface Autosave {
  /** Saves whatever is pending now. */
  flush(): Promise<void>;
  stop(): void;
}

export function startAutosave(
  store: AppStore,
  repository: NotebookRepository,
  delayMs = 400,
): Autosave {
  let pending: Notebook | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = async (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const notebook = pending;
    pending = null;
    if (notebook) await repository.save(notebook);
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.notebook === previous.notebook) return;
    if (state.notebook === null || (pending && pending.id !== state.notebook.id)) {
      void flush();
    }
    if (state.notebook === null) return;
    pending = state.notebook;
    if (timer === null) timer = setTimeout(() => void flush(), delayMs);
  });

  return {
    flush,
    stop: () => {
      unsubscribe();
      void flush();
    },
  };
}
