/** The open notebook and the document edits on it, each one a model operation (see model.ts). */
import {
  cellIndex,
  clearAllOutputs,
  clearOutputs,
  createCell,
  deleteCell,
  insertCell,
  moveCell,
  resetRuntimeState,
  setCellSource,
  setCellType,
  setTitle,
  type Notebook,
} from '../model';
import type { NotebookSlice, SliceCreator } from './types';

export function createNotebookSlice(now: () => number = Date.now): SliceCreator<NotebookSlice> {
  return (set, get) => {
    const change = (update: (notebook: Notebook) => Notebook, touch = true): void => {
      const notebook = get().notebook;
      if (!notebook) return;
      const next = update(notebook);
      if (next === notebook) return;
      set({ notebook: touch ? { ...next, updatedAt: now() } : next });
    };

    return {
      notebook: null,

      // View state belongs to the notebook it was made for: opening or closing one clears it.
      openNotebook: (notebook, options) => {
        get().cancelTrust();
        set({
          notebook: resetRuntimeState(notebook),
          trusted: options?.trusted ?? false,
          activeCellId: null,
          focusRequest: null,
          markdownEditing: {},
        });
      },
      closeNotebook: () =>
        set({ notebook: null, activeCellId: null, focusRequest: null, markdownEditing: {} }),
      changeNotebook: (update, options) => change(update, options?.touch ?? true),

      insertCell: (index, type, source = '') => {
        const cell = createCell(type, source);
        change((nb) => insertCell(nb, index, cell));
        return cell.id;
      },
      deleteCell: (cellId) => change((nb) => deleteCell(nb, cellId)),
      moveCellBy: (cellId, delta) =>
        change((nb) => {
          const from = cellIndex(nb, cellId);
          return from < 0 ? nb : moveCell(nb, cellId, from + delta);
        }),
      setCellType: (cellId, type) => change((nb) => setCellType(nb, cellId, type)),
      setCellSource: (cellId, source) => change((nb) => setCellSource(nb, cellId, source)),
      clearOutputs: (cellId) => change((nb) => clearOutputs(nb, cellId)),
      clearAllOutputs: () => change(clearAllOutputs),
      setTitle: (title) => change((nb) => setTitle(nb, title)),
    };
  };
}
