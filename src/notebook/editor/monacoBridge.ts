/**
 * The few things the rest of the notebook asks of Monaco without importing it (Monaco is a
 * multi-megabyte chunk loaded on demand): load it, drop a deleted cell's model, tell it the
 * notebook's cell sources. Calls made before Monaco has loaded are remembered or dropped.
 */

export interface MonacoBridge {
  disposeModel(uri: string): void;
  setNotebookSources(sources: readonly string[]): void;
}

let bridge: MonacoBridge | null = null;
let pendingSources: readonly string[] | null = null;

/** Called once by the Monaco setup module when it has loaded. */
export function connectMonaco(connected: MonacoBridge): void {
  bridge = connected;
  if (pendingSources) connected.setNotebookSources(pendingSources);
}

/** Loads the Monaco cell editor chunk (React.lazy and preloading share this one import). */
export const loadMonacoCellEditor = () => import('./MonacoCellEditor');

/** Starts loading Monaco in the background, e.g. as soon as a notebook opens. */
export function preloadMonaco(): void {
  void loadMonacoCellEditor().catch(() => {
    // The editor shows the error when it actually needs the chunk.
  });
}

export function disposeCellModel(uri: string): void {
  bridge?.disposeModel(uri);
}

/** The open notebook's code cell sources, for names declared in one cell and used in another. */
export function setNotebookSources(sources: readonly string[]): void {
  pendingSources = sources;
  bridge?.setNotebookSources(sources);
}

/** The editor's language for a cell: markdown cells, or the notebook's code language. */
export type CellLanguage = 'typescript' | 'python' | 'markdown';

const EXTENSIONS: Record<CellLanguage, string> = { typescript: 'ts', python: 'py', markdown: 'md' };

/** Each cell is its own model (its own module for TypeScript), named after notebook and cell. */
export function cellModelUri(notebookId: string, cellId: string, language: CellLanguage): string {
  return `file:///notebooks/${notebookId}/cell-${cellId}.${EXTENSIONS[language]}`;
}
