/**
 * Operations on the user's list of notebooks that are more than one repository call: duplicate,
 * rename, save a tab's version as a copy. Copies get a new notebook id and keep their source's
 * trust (trust.ts).
 */
import { newId } from './ids';
import { resetRuntimeState, setTitle, type Notebook } from './model';
import type { NotebookRepository } from './repository';
import { trustedOnArrival } from './trust';

/** A copy of `notebook` under a new id, at rest (no cell queued or running). */
export function copyOf(
  notebook: Notebook,
  options: { title?: string; now?: number } = {},
): Notebook {
  return {
    ...resetRuntimeState(notebook),
    id: newId(),
    title: options.title ?? notebook.title,
    updatedAt: options.now ?? Date.now(),
  };
}

/** Adds a copy of a stored notebook ("Copy of …") and returns it; null if it is gone. */
export async function duplicateNotebook(
  repository: NotebookRepository,
  id: string,
  now = Date.now(),
): Promise<Notebook | null> {
  const source = await repository.get(id);
  if (!source) return null;
  const copy = copyOf(source, { title: `Copy of ${source.title}`, now });
  const trusted = trustedOnArrival('copy', await repository.isTrusted(id));
  await repository.add(copy, { trusted });
  return copy;
}

/** Renames a stored notebook; an empty title becomes "Untitled notebook". */
export async function renameNotebook(
  repository: NotebookRepository,
  id: string,
  title: string,
  now = Date.now(),
): Promise<void> {
  const notebook = await repository.get(id);
  if (!notebook) return;
  const clean = title.trim() || 'Untitled notebook';
  if (clean === notebook.title) return;
  await repository.save({ ...setTitle(notebook, clean), updatedAt: now });
}

/**
 * "Keep mine" after a conflict: this tab's version becomes a new notebook beside the other tab's,
 * so neither is lost. Returns the copy (the caller opens it).
 */
export async function saveAsCopy(
  repository: NotebookRepository,
  notebook: Notebook,
  trusted: boolean,
  now = Date.now(),
): Promise<Notebook> {
  const copy = copyOf(notebook, { title: `${notebook.title} (my copy)`, now });
  await repository.add(copy, { trusted: trustedOnArrival('copy', trusted) });
  return copy;
}
