/**
 * The notebook document and every operation on it, as pure functions (JupyterLab's actions
 * style): buttons, shortcuts, the kernel wiring and tests all change a notebook through these.
 *
 * The shape follows nbformat 4.5 (cell ids, cell and notebook metadata, a kernelspec, outputs in
 * the protocol's nbformat-shaped kinds) so that saving, `.ipynb` import/export and share links map
 * it field by field. `status` is runtime state only: it is never saved and reads back as 'idle'.
 * Every function returns the same object when nothing changed, which keeps React renders cheap.
 */
import type { CellLanguage, CellOutput, MimeBundle } from '../kernel/protocol';
import { newId } from './ids';

export type CellType = 'code' | 'markdown';
export type CellStatus = 'idle' | 'queued' | 'running' | 'done' | 'error';

export interface Cell {
  /** nbformat 4.5 cell id: 1-64 characters of [a-zA-Z0-9-_]. */
  id: string;
  type: CellType;
  source: string;
  /** Always empty for markdown cells. */
  outputs: CellOutput[];
  executionCount: number | null;
  status: CellStatus;
  /** nbformat cell metadata (tags, collapsed, …), carried through unchanged. */
  metadata: Record<string, unknown>;
}

export interface KernelSpec {
  name: string;
  display_name: string;
  language: string;
}

export interface NotebookMetadata {
  kernelspec: KernelSpec;
  language_info?: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface Notebook {
  id: string;
  /** Shown in the toolbar and the home list; becomes the file name on export. */
  title: string;
  cells: Cell[];
  metadata: NotebookMetadata;
  /** Milliseconds since the epoch of the last change; orders the home list. */
  updatedAt: number;
}

/** The kernelspec TESTING.md fixes for exported notebooks. */
export const GPUBOOK_KERNELSPEC: KernelSpec = {
  name: 'gpubook',
  display_name: 'TypeScript (WebGPU)',
  language: 'typescript',
};

/** A Python notebook's kernelspec, as Jupyter writes it (shared/TESTING.md, "Python notebooks"). */
export const PYTHON_KERNELSPEC: KernelSpec = {
  name: 'python3',
  display_name: 'Python 3',
  language: 'python',
};

/** What a new notebook of each language records (nbformat kernelspec + language_info). */
export function languageMetadata(language: CellLanguage): NotebookMetadata {
  return language === 'python'
    ? { kernelspec: { ...PYTHON_KERNELSPEC }, language_info: { name: 'python' } }
    : { kernelspec: { ...GPUBOOK_KERNELSPEC }, language_info: { name: 'typescript' } };
}

/**
 * The language a notebook's metadata names. Python when the kernelspec or language_info says so
 * (Jupyter's `python3`, Colab's, ipykernel's `Python 3 (ipykernel)`); everything else is ours,
 * TypeScript, as before Python notebooks existed.
 */
export function metadataLanguage(metadata: Record<string, unknown> | undefined): CellLanguage {
  const kernelspec = metadata?.kernelspec as Record<string, unknown> | undefined;
  const languageInfo = metadata?.language_info as Record<string, unknown> | undefined;
  const names = [kernelspec?.language, languageInfo?.name, kernelspec?.name];
  const said = names.find((name): name is string => typeof name === 'string' && name !== '');
  return said !== undefined && /^python/i.test(said) ? 'python' : 'typescript';
}

export function notebookLanguage(notebook: Notebook): CellLanguage {
  return metadataLanguage(notebook.metadata);
}

export function createCell(type: CellType, source = ''): Cell {
  return {
    id: newId(),
    type,
    source,
    outputs: [],
    executionCount: null,
    status: 'idle',
    metadata: {},
  };
}

/** A new notebook starts with one empty code cell, ready to type into. */
export function createNotebook(
  options: {
    id?: string;
    title?: string;
    now?: number;
    cells?: Cell[];
    language?: CellLanguage;
  } = {},
): Notebook {
  return {
    id: options.id ?? newId(),
    title: options.title ?? 'Untitled notebook',
    cells: options.cells ?? [createCell('code')],
    metadata: languageMetadata(options.language ?? 'typescript'),
    updatedAt: options.now ?? Date.now(),
  };
}

export function cellIndex(notebook: Notebook, cellId: string): number {
  return notebook.cells.findIndex((c) => c.id === cellId);
}

export function findCell(notebook: Notebook, cellId: string): Cell | undefined {
  return notebook.cells.find((c) => c.id === cellId);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** Applies `change` to one cell; the same notebook back if the cell is missing or unchanged. */
function mapCell(notebook: Notebook, cellId: string, change: (cell: Cell) => Cell): Notebook {
  const index = cellIndex(notebook, cellId);
  if (index < 0) return notebook;
  const before = notebook.cells[index];
  const after = change(before);
  if (after === before) return notebook;
  const cells = notebook.cells.slice();
  cells[index] = after;
  return { ...notebook, cells };
}

/** Inserts `cell` so that it ends up at `index` (clamped to the ends). */
export function insertCell(notebook: Notebook, index: number, cell: Cell): Notebook {
  const at = clamp(index, 0, notebook.cells.length);
  const cells = notebook.cells.slice();
  cells.splice(at, 0, cell);
  return { ...notebook, cells };
}

export function deleteCell(notebook: Notebook, cellId: string): Notebook {
  const index = cellIndex(notebook, cellId);
  if (index < 0) return notebook;
  return { ...notebook, cells: notebook.cells.filter((c) => c.id !== cellId) };
}

/** Moves a cell so that it ends up at `toIndex` (clamped to the ends). */
export function moveCell(notebook: Notebook, cellId: string, toIndex: number): Notebook {
  const from = cellIndex(notebook, cellId);
  if (from < 0) return notebook;
  const to = clamp(toIndex, 0, notebook.cells.length - 1);
  if (to === from) return notebook;
  const cells = notebook.cells.slice();
  const [cell] = cells.splice(from, 1);
  cells.splice(to, 0, cell);
  return { ...notebook, cells };
}

/** Changing the type keeps the source; outputs and the execution count belong to code only. */
export function setCellType(notebook: Notebook, cellId: string, type: CellType): Notebook {
  return mapCell(notebook, cellId, (cell) =>
    cell.type === type
      ? cell
      : { ...cell, type, outputs: [], executionCount: null, status: 'idle' },
  );
}

export function setCellSource(notebook: Notebook, cellId: string, source: string): Notebook {
  return mapCell(notebook, cellId, (cell) => (cell.source === source ? cell : { ...cell, source }));
}

/** As JupyterLab: clearing outputs also forgets the execution count (a running cell keeps it). */
export function clearOutputs(notebook: Notebook, cellId: string): Notebook {
  return mapCell(notebook, cellId, clearCellOutputs);
}

export function clearAllOutputs(notebook: Notebook): Notebook {
  const cells = notebook.cells.map(clearCellOutputs);
  return cells.every((c, i) => c === notebook.cells[i]) ? notebook : { ...notebook, cells };
}

function clearCellOutputs(cell: Cell): Cell {
  const busy = cell.status === 'running' || cell.status === 'queued';
  if (cell.outputs.length === 0 && (busy || cell.executionCount === null)) return cell;
  return busy
    ? { ...cell, outputs: [] }
    : { ...cell, outputs: [], executionCount: null, status: 'idle' };
}

/**
 * Appends outputs to a cell. A stream output directly after a stream output of the same name is
 * merged into it, so a loop printing thousands of lines is one output, not thousands.
 */
export function appendOutputs(
  notebook: Notebook,
  cellId: string,
  outputs: readonly CellOutput[],
): Notebook {
  if (outputs.length === 0) return notebook;
  return mapCell(notebook, cellId, (cell) => {
    const merged = cell.outputs.slice();
    for (const output of outputs) {
      const last = merged[merged.length - 1];
      if (
        output.kind === 'stream' &&
        last !== undefined &&
        last.kind === 'stream' &&
        last.name === output.name
      ) {
        merged[merged.length - 1] = { ...last, text: last.text + output.text };
      } else {
        merged.push(output);
      }
    }
    return { ...cell, outputs: merged };
  });
}

/** IPython's `clear_output()` in a running cell: its outputs go, its status and count stay. */
export function clearRunningOutputs(notebook: Notebook, cellId: string): Notebook {
  return mapCell(notebook, cellId, (cell) =>
    cell.outputs.length === 0 ? cell : { ...cell, outputs: [] },
  );
}

/** Replaces the data of the cell's display output(s) carrying `displayId` (live charts, bars). */
export function updateDisplay(
  notebook: Notebook,
  cellId: string,
  displayId: string,
  data: MimeBundle,
): Notebook {
  return mapCell(notebook, cellId, (cell) => {
    let changed = false;
    const outputs = cell.outputs.map((output) => {
      if (output.kind !== 'display' || output.displayId !== displayId) return output;
      changed = true;
      return { ...output, data };
    });
    return changed ? { ...cell, outputs } : cell;
  });
}

export function setCellStatus(notebook: Notebook, cellId: string, status: CellStatus): Notebook {
  return mapCell(notebook, cellId, (cell) => (cell.status === status ? cell : { ...cell, status }));
}

/** A run was asked for: outputs go at once (as JupyterLab does), the cell waits its turn. */
export function queueCell(notebook: Notebook, cellId: string): Notebook {
  return mapCell(notebook, cellId, (cell) =>
    cell.type === 'code' ? { ...cell, outputs: [], status: 'queued' } : cell,
  );
}

/** The kernel began the cell: it takes the execution count the kernel was given. */
export function startExecution(
  notebook: Notebook,
  cellId: string,
  executionCount: number,
): Notebook {
  return mapCell(notebook, cellId, (cell) => ({ ...cell, status: 'running', executionCount }));
}

/** The kernel finished the cell; `executionCount` covers cells that failed before starting. */
export function finishExecution(
  notebook: Notebook,
  cellId: string,
  status: 'done' | 'error' | 'idle',
  executionCount?: number,
): Notebook {
  return mapCell(notebook, cellId, (cell) => {
    const count = executionCount ?? cell.executionCount;
    return cell.status === status && cell.executionCount === count
      ? cell
      : { ...cell, status, executionCount: count };
  });
}

/** Every cell at rest: how a notebook opens, since no kernel has run any of it yet. */
export function resetRuntimeState(notebook: Notebook): Notebook {
  const cells = notebook.cells.map((c) =>
    c.status === 'idle' ? c : { ...c, status: 'idle' as const },
  );
  return cells.every((c, i) => c === notebook.cells[i]) ? notebook : { ...notebook, cells };
}

export function setTitle(notebook: Notebook, title: string): Notebook {
  return notebook.title === title ? notebook : { ...notebook, title };
}
