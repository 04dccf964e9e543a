/**
 * The kernel as the notebook sees it: one KernelClient per open notebook, its events written into
 * the notebook's cells, and the run actions (run cell / all / all above, interrupt, restart).
 *
 * Runs wait in a queue here and go to the client one at a time, so that:
 * - a cell's execution count is given when it actually starts (no gaps after a cancelled run);
 * - the first cell ending in error (or interrupted) cancels everything still queued, as Jupyter
 *   does — Run all stops there and the cells after it go back to idle.
 */
import type { ExecutionResult, KernelClient, KernelListener } from '../../kernel/client';
import type { CellLanguage } from '../../kernel/protocol';
import {
  appendOutputs,
  findCell,
  finishExecution,
  notebookLanguage,
  queueCell,
  startExecution,
  updateDisplay,
  type Notebook,
} from '../model';
import type { KernelNotice, KernelResetReason, KernelSlice, SliceCreator } from './types';

/** The part of KernelClient the store uses; tests drive the store with a fake of it. */
export type KernelHandle = Pick<
  KernelClient,
  'subscribe' | 'start' | 'execute' | 'interrupt' | 'restart' | 'dispose' | 'state' | 'info'
>;

export interface KernelDeps {
  createKernel(): KernelHandle;
}

/** A worker that crashes this many times in a row before ever becoming ready is given up. */
export const MAX_CRASHES_BEFORE_READY = 3;

export const KERNEL_RESET_MESSAGE = 'Kernel restarted: variables from earlier cells are gone';

const RESET_DETAIL: Record<KernelResetReason, string> = {
  restart: 'You restarted the kernel.',
  interrupt: 'The running cell did not stop when interrupted, so the kernel was replaced.',
  crash: 'The kernel stopped unexpectedly and was started again.',
};

const RESET_CELL_ERROR: Record<KernelResetReason, { ename: string; evalue: string } | null> = {
  restart: null,
  interrupt: {
    ename: 'KeyboardInterrupt',
    evalue: 'The cell did not stop when interrupted, so the kernel was restarted.',
  },
  crash: { ename: 'KernelDied', evalue: 'The kernel stopped unexpectedly while this cell ran.' },
};

interface Run {
  cellId: string;
  /** The source as it was when the run was asked for, as in Jupyter. */
  code: string;
  /** The notebook's language: the worker runs Python cells with Pyodide. */
  language: CellLanguage;
}

interface ActiveRun extends Run {
  executionCount: number;
}

export function createKernelSlice(deps: KernelDeps): SliceCreator<KernelSlice> {
  return (set, get) => {
    let client: KernelHandle | null = null;
    let unsubscribe: (() => void) | null = null;
    let queue: Run[] = [];
    let running: ActiveRun | null = null;
    let executionCounter = 0;
    let crashesSinceReady = 0;
    /** Bumped when the client is dropped, so late promise resolutions from it are ignored. */
    let generation = 0;

    /** Runtime changes (status) do not touch the notebook; outputs do. */
    const edit = (update: (notebook: Notebook) => Notebook, touch = false): void =>
      get().changeNotebook(update, { touch });

    /** The client says idle between two queued runs; the notebook is still busy then. */
    const publishState = (): void => {
      if (!client) return;
      const state = client.state;
      const busyHere = running !== null || queue.length > 0;
      set({
        kernelState: state === 'idle' && busyHere ? 'busy' : state,
        kernelInfo: client.info,
      });
    };

    const cancelQueued = (): void => {
      const cancelled = queue;
      queue = [];
      for (const run of cancelled) {
        edit((nb) =>
          findCell(nb, run.cellId)?.status === 'queued'
            ? finishExecution(nb, run.cellId, 'idle')
            : nb,
        );
      }
    };

    const pump = (): void => {
      if (running || !client) return;
      const next = queue.shift();
      if (!next) {
        publishState();
        return;
      }
      executionCounter += 1;
      const run: ActiveRun = { ...next, executionCount: executionCounter };
      running = run;
      const runGeneration = generation;
      void client
        .execute(run.cellId, run.code, run.executionCount, run.language)
        .then((result) => finished(run, result, runGeneration));
      publishState();
    };

    const finished = (run: ActiveRun, result: ExecutionResult, runGeneration: number): void => {
      if (runGeneration !== generation) return;
      running = null;
      // The `done` event normally settled the cell already; this covers runs that ended without
      // one (cancelled, or the worker replaced under them).
      const status = result === 'ok' ? 'done' : result === 'cancelled' ? 'idle' : 'error';
      edit((nb) => {
        const cell = findCell(nb, run.cellId);
        return cell && (cell.status === 'queued' || cell.status === 'running')
          ? finishExecution(nb, run.cellId, status)
          : nb;
      });
      // A run cancelled before it could count gives its number back (no gaps in [n]).
      if (result === 'cancelled' && executionCounter === run.executionCount) executionCounter -= 1;
      if (result !== 'ok') cancelQueued();
      pump();
    };

    const fail = (): void => {
      if (!client) return;
      dropClient();
      set({
        kernelState: 'dead',
        kernelInfo: null,
        kernelNotice: {
          reason: 'failed',
          message: 'The kernel could not start',
          detail: `Its worker failed ${MAX_CRASHES_BEFORE_READY} times in a row. Restart the kernel to try again.`,
        },
      });
    };

    const listener: KernelListener = {
      state: (state) => {
        if (state === 'idle' || state === 'busy') crashesSinceReady = 0;
        publishState();
      },
      started: (cellId) => {
        const run = running;
        if (run?.cellId === cellId) edit((nb) => startExecution(nb, cellId, run.executionCount));
      },
      output: (cellId, outputs) => edit((nb) => appendOutputs(nb, cellId, outputs), true),
      updateDisplay: (cellId, displayId, data) =>
        edit((nb) => updateDisplay(nb, cellId, displayId, data), true),
      done: (event) => {
        const count = running?.cellId === event.cellId ? running.executionCount : undefined;
        const status = event.status === 'ok' ? 'done' : 'error';
        edit((nb) => {
          let next = finishExecution(nb, event.cellId, status, count);
          if (event.droppedOutputs > 0) {
            const text = `… ${event.droppedOutputs} more output${event.droppedOutputs === 1 ? '' : 's'} not kept: the cell produced more than a notebook keeps.\n`;
            next = appendOutputs(next, event.cellId, [{ kind: 'stream', name: 'stderr', text }]);
          }
          return next;
        }, true);
      },
      reset: (reason) => {
        // The cell that was running gets a word of why it ended (no `done` comes for it).
        const run = running;
        const why = RESET_CELL_ERROR[reason];
        if (run && why) {
          edit(
            (nb) => appendOutputs(nb, run.cellId, [{ kind: 'error', ...why, traceback: [] }]),
            true,
          );
        }
        // As in Jupyter, a fresh kernel counts from 1 again.
        executionCounter = 0;
        cancelQueued();
        const notice: KernelNotice = {
          reason,
          message: KERNEL_RESET_MESSAGE,
          detail: RESET_DETAIL[reason],
        };
        set({ kernelNotice: notice });
        if (reason === 'crash') {
          crashesSinceReady += 1;
          // The client starts a new worker right after telling its listeners; give up after it.
          if (crashesSinceReady >= MAX_CRASHES_BEFORE_READY) queueMicrotask(fail);
        }
      },
    };

    function dropClient(): void {
      generation += 1;
      unsubscribe?.();
      unsubscribe = null;
      client?.dispose();
      client = null;
      running = null;
      queue = [];
      executionCounter = 0;
      crashesSinceReady = 0;
    }

    const ensureClient = (): KernelHandle => {
      if (client) return client;
      const created = deps.createKernel();
      client = created;
      unsubscribe = created.subscribe(listener);
      created.start();
      publishState();
      return created;
    };

    const enqueue = (cellIds: readonly string[]): void => {
      const notebook = get().notebook;
      if (!notebook) return;
      for (const cellId of cellIds) {
        const cell = findCell(notebook, cellId);
        if (!cell) continue;
        if (cell.type === 'markdown') {
          get().setMarkdownEditing(cellId, false);
          continue;
        }
        const waiting = running?.cellId === cellId || queue.some((r) => r.cellId === cellId);
        if (waiting) continue;
        queue.push({ cellId, code: cell.source, language: notebookLanguage(notebook) });
        edit((nb) => queueCell(nb, cellId), true);
      }
      ensureClient();
      pump();
    };

    return {
      kernelState: 'dead',
      kernelInfo: null,
      kernelNotice: null,

      startKernel: () => {
        ensureClient();
      },
      stopKernel: () => {
        cancelQueued();
        const run = running;
        dropClient();
        if (run) edit((nb) => finishExecution(nb, run.cellId, 'idle'));
        set({ kernelState: 'dead', kernelInfo: null, kernelNotice: null });
      },
      // Every run goes through the trust gate (trustSlice): an untrusted notebook asks first.
      runCell: (cellId) =>
        get().whenTrusted({ action: 'run-cell', cellId }, () => enqueue([cellId])),
      runAll: () =>
        get().whenTrusted({ action: 'run-all' }, () =>
          enqueue(get().notebook?.cells.map((c) => c.id) ?? []),
        ),
      runAllAbove: (cellId) =>
        get().whenTrusted({ action: 'run-above', cellId }, () => {
          const cells = get().notebook?.cells ?? [];
          const index = cells.findIndex((c) => c.id === cellId);
          if (index > 0) enqueue(cells.slice(0, index).map((c) => c.id));
        }),
      interrupt: () => {
        cancelQueued();
        client?.interrupt();
      },
      restart: () => {
        cancelQueued();
        if (client) client.restart();
        else {
          ensureClient();
          set({ kernelNotice: null });
        }
      },
      dismissKernelNotice: () => set({ kernelNotice: null }),
    };
  };
}
