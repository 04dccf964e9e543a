/**
 * The shape of the notebook store: one zustand store made of four slices (zustand's slices
 * pattern), so each concern is written and tested on its own and components select small pieces.
 */
import type { StateCreator } from 'zustand';
import type { ExecutionResult, KernelResetReason, KernelState } from '../../kernel/client';
import type { CellOutput, KernelInfo } from '../../kernel/protocol';
import type { CellType, Notebook } from '../model';
import type { TrustRequest } from '../trust';

export interface NotebookSlice {
  /** The open notebook, or null on the home page. */
  notebook: Notebook | null;
  /**
   * Shows `notebook`. `trusted` (default false, so forgetting it fails safe) says whether its code
   * may run without asking; see TrustSlice.
   */
  openNotebook(notebook: Notebook, options?: { trusted?: boolean }): void;
  closeNotebook(): void;
  /**
   * Applies a pure model operation to the open notebook. `touch` (the default) marks a change of
   * the document itself; runtime-only changes (cell status) pass false so the "last edited" order
   * of the home list does not move when a notebook merely runs.
   */
  changeNotebook(change: (notebook: Notebook) => Notebook, options?: { touch?: boolean }): void;
  /** Inserts an empty cell at `index` and returns its id. */
  insertCell(index: number, type: CellType, source?: string): string;
  deleteCell(cellId: string): void;
  /** Moves a cell by `delta` places (-1 up, +1 down). */
  moveCellBy(cellId: string, delta: number): void;
  setCellType(cellId: string, type: CellType): void;
  setCellSource(cellId: string, source: string): void;
  clearOutputs(cellId: string): void;
  clearAllOutputs(): void;
  setTitle(title: string): void;
}

export interface KernelNotice {
  reason: KernelResetReason | 'failed' | 'device-lost';
  /** Headline, e.g. "Kernel restarted: variables from earlier cells are gone". */
  message: string;
  /** Why it happened, in a sentence. */
  detail: string;
}

export interface KernelSlice {
  kernelState: KernelState;
  kernelInfo: KernelInfo | null;
  kernelNotice: KernelNotice | null;
  /** Starts a kernel for the open notebook (no-op if one runs). */
  startKernel(): void;
  /** Stops the kernel for good, e.g. when the notebook closes. */
  stopKernel(): void;
  runCell(cellId: string): void;
  runAll(): void;
  /** Runs every cell above `cellId`, not the cell itself. */
  runAllAbove(cellId: string): void;
  interrupt(): void;
  restart(): void;
  dismissKernelNotice(): void;
  /**
   * Runs code of the app's own (not a cell: e.g. the DistributedDataParallel export) in the
   * notebook's kernel and language, after what is queued; resolves with its outputs. Like
   * Jupyter's silent execute it takes no execution count, and its error cancels nothing queued.
   */
  runHidden(code: string): Promise<HiddenRun>;
}

export interface HiddenRun {
  status: ExecutionResult;
  outputs: CellOutput[];
}

export interface FocusRequest {
  cellId: string;
  /** Increases with every request, so asking twice for the same cell focuses it twice. */
  seq: number;
}

export interface UiSlice {
  /** The selected cell (highlighted; target of keyboard commands). */
  activeCellId: string | null;
  /** Asks the cell's editor to take keyboard focus. */
  focusRequest: FocusRequest | null;
  /** Markdown cells shown as source instead of rendered. */
  markdownEditing: Readonly<Record<string, true>>;
  setActiveCell(cellId: string | null): void;
  /** Selects the cell and moves keyboard focus into its editor. */
  focusCell(cellId: string): void;
  /** The cell took focus: the request is done (a remounted cell must not take it again). */
  consumeFocusRequest(seq: number): void;
  setMarkdownEditing(cellId: string, editing: boolean): void;
}

export interface TrustSlice {
  /** Whether the open notebook's code may run without asking (see ../trust.ts). */
  trusted: boolean;
  /** A run that waits for the user to trust the notebook (the trust dialog shows while set). */
  trustRequest: TrustRequest | null;
  setTrusted(trusted: boolean): void;
  /** Runs `run` now if the notebook is trusted; otherwise keeps it and asks for trust. */
  whenTrusted(request: TrustRequest, run: () => void): void;
  /** The user trusts the notebook: it stays trusted and the waiting run goes ahead. */
  confirmTrust(): void;
  cancelTrust(): void;
}

export type AppState = NotebookSlice & KernelSlice & UiSlice & TrustSlice;

export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
