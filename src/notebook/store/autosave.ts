/**
 * Saves the open notebook (cells and outputs) to the repository shortly after it changes, and at
 * once when it closes or the page hides, so a reload or a crash loses at most the last moment and
 * a burst of outputs is one save, not hundreds.
 *
 * Only edits are saved: opening a notebook or a change of run state alone writes nothing, so a
 * second tab that merely shows a notebook never makes the first one's next save conflict. Saves
 * run one at a time (a tab never races itself past the revision check). A failed save (another
 * tab saved first: ConflictError) goes to `onError`; the notebook in the store stays as it is, so
 * nothing typed is lost while the user decides.
 */
import type { Notebook } from '../model';
import type { NotebookRepository } from '../repository';
import type { AppStore } from './createAppStore';

export interface Autosave {
  /** Saves whatever is pending now; resolves when every save asked for so far is done. */
  flush(): Promise<void>;
  /** Forgets the pending save (the store is about to show another version of the notebook). */
  discard(): void;
  stop(): void;
}

export interface AutosaveOptions {
  /** How long after an edit the save happens; at most 1 s by the persistence contract. */
  delayMs?: number;
  onError?(error: unknown, notebook: Notebook): void;
}

export function startAutosave(
  store: AppStore,
  repository: NotebookRepository,
  options: AutosaveOptions = {},
): Autosave {
  const delayMs = options.delayMs ?? 500;
  const onError =
    options.onError ??
    ((error: unknown) => {
      console.error('Saving the notebook failed', error);
    });
  let pending: Notebook | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The chain of saves: each starts after the previous one ended. */
  let saving: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const notebook = pending;
    pending = null;
    if (notebook) {
      saving = saving.then(() =>
        repository.save(notebook).catch((error: unknown) => onError(error, notebook)),
      );
    }
    return saving;
  };

  const unsubscribe = store.subscribe((state, previous) => {
    const notebook = state.notebook;
    const before = previous.notebook;
    if (notebook === before) return;
    // Leaving a notebook (closing it, or opening another): its pending edits are saved now.
    if (pending && pending.id !== notebook?.id) void flush();
    if (!notebook) return;
    const edited =
      pending?.id === notebook.id ||
      (before?.id === notebook.id && notebook.updatedAt !== before.updatedAt);
    if (!edited) return;
    pending = notebook;
    if (timer === null) timer = setTimeout(() => void flush(), delayMs);
  });

  return {
    flush,
    discard: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = null;
    },
    stop: () => {
      unsubscribe();
      void flush();
    },
  };
}
