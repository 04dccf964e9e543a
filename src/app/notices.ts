/**
 * App-level notices outside any one notebook's store: the error banner (a bad link or file, a
 * storage problem) and the "changed in another tab" conflict of the open notebook.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ConflictReason } from '../notebook/storage/records';

export interface Conflict {
  notebookId: string;
  reason: ConflictReason;
}

interface Notices {
  error: string | null;
  conflict: Conflict | null;
}

export const notices = createStore<Notices>(() => ({ error: null, conflict: null }));

/** LinkError and NotebookFileError messages are written for users; other errors get a frame. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'LinkError' || error.name === 'NotebookFileError') return error.message;
    return `Something went wrong: ${error.message}`;
  }
  return `Something went wrong: ${String(error)}`;
}

export function showError(error: unknown): void {
  notices.setState({ error: typeof error === 'string' ? error : errorMessage(error) });
}

export function dismissError(): void {
  notices.setState({ error: null });
}

export function reportConflict(conflict: Conflict): void {
  notices.setState({ conflict });
}

export function clearConflict(): void {
  notices.setState({ conflict: null });
}

export function useNotices<T>(selector: (state: Notices) => T): T {
  return useStore(notices, selector);
}
