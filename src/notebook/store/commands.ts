/**
 * Notebook commands that combine slices (run and move on, insert and focus). Buttons and the
 * keyboard shortcut registry both call these, so a shortcut and its button cannot drift apart.
 */
import { cellIndex, type CellType } from '../model';
import type { AppStore } from './createAppStore';

/** Inserts an empty cell at `index`, selects it and puts the cursor in it. */
export function insertCellAt(store: AppStore, index: number, type: CellType): string {
  const state = store.getState();
  const id = state.insertCell(index, type);
  if (type === 'markdown') state.setMarkdownEditing(id, true);
  state.focusCell(id);
  return id;
}

/** Inserts next to an existing cell (or at the end of the notebook when `cellId` is null). */
export function insertCellNextTo(
  store: AppStore,
  cellId: string | null,
  where: 'above' | 'below',
  type: CellType,
): string {
  const notebook = store.getState().notebook;
  const count = notebook?.cells.length ?? 0;
  const index = cellId && notebook ? cellIndex(notebook, cellId) : -1;
  if (index < 0) return insertCellAt(store, count, type);
  return insertCellAt(store, where === 'above' ? index : index + 1, type);
}

/** Shift+Enter: run, then move to the next cell, making one at the end if there is none. */
export function runAndAdvance(store: AppStore, cellId: string): void {
  const state = store.getState();
  state.runCell(cellId);
  const notebook = store.getState().notebook;
  if (!notebook) return;
  const index = cellIndex(notebook, cellId);
  const next = notebook.cells[index + 1];
  if (next) state.focusCell(next.id);
  else insertCellAt(store, notebook.cells.length, 'code');
}

/** Ctrl/Cmd+Enter: run and stay. */
export function runInPlace(store: AppStore, cellId: string): void {
  store.getState().runCell(cellId);
}

/** Alt+Enter: run, then insert a code cell below and move into it. */
export function runAndInsertBelow(store: AppStore, cellId: string): void {
  store.getState().runCell(cellId);
  insertCellNextTo(store, cellId, 'below', 'code');
}

/** Deletes a cell and selects its neighbour, so keyboard users keep their place. */
export function deleteCellAndSelectNeighbour(store: AppStore, cellId: string): void {
  const state = store.getState();
  const cells = state.notebook?.cells ?? [];
  const index = cells.findIndex((c) => c.id === cellId);
  if (index < 0) return;
  const neighbour = cells[index + 1] ?? cells[index - 1] ?? null;
  state.deleteCell(cellId);
  state.setMarkdownEditing(cellId, false);
  if (state.activeCellId === cellId) state.setActiveCell(neighbour?.id ?? null);
}
