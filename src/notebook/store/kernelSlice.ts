/**
 * The kernel as the notebook sees it: one KernelClient per open notebook, its events written into
 * the notebook's cells, and the run actions (run cell / all / all above, interrupt, restart).
 *
 * The client keeps the one run queue (execution counts, stopping at the first error); this slice
 * marks cells queued, running and finished as the client reports them, and decides what a
 * notebook does about a worker that keeps crashing.
 */
import type {
  ExecutionResult,
  KernelClient,
  KernelListener,
  KernelResetReason,
} from '../../kernel/client';
import {
  appendOutputs,
  clearRunningOutputs,
  findCell,
  finishExecution,
  notebookLanguage,
  queueCell,
  startExecution,
  updateDisplay,
  type Notebook,
} from '../model';
import type { CellOutput } from '../../kernel/protocol';
import type { KernelNotice, KernelSlice, SliceCreator } from './types';

export interface KernelDeps {
  /** Tests give a real client over a scripted worker (`testing/scriptedWorker.ts`). */
  createKernel(): KernelClient;
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

export function createKernelSlice(deps: KernelDeps): SliceCreator<KernelSlice> {
  return (set, get) => {
    let client: KernelClient | null = null;
    let unsubscribe: (() => void) | null = null;
    let crashesSinceReady = 0;
    /** Bumped when the client is dropped, so late promise resolutions from it are ignored. */
    let generation = 0;
    let hiddenRuns = 0;

    /** Runtime changes (status) do not touch the notebook; outputs do. */
    const edit = (update: (notebook: Notebook) => Notebook, touch = false): void =>
      get().changeNotebook(update, { touch });

    const publishState = (): void => {
      if (client) set({ kernelState: client.state, kernelInfo: client.info });
    };

    /** Puts cells that were queued (and never started) back to idle. */
    const backToIdle = (cellIds: readonly string[]): void => {
      for (const cellId of cellIds) {
        edit((nb) =>
          findCell(nb, cellId)?.status === 'queued' ? finishExecution(nb, cellId, 'idle') : nb,
        );
      }
    };

    /** Settles runs that ended without a `done` event (cancelled, or the worker replaced). */
    const finished = (cellId: string, result: ExecutionResult, runGeneration: number): void => {
      if (runGeneration !== generation) return;
      const status = result === 'ok' ? 'done' : result === 'cancelled' ? 'idle' : 'error';
      edit((nb) => {
        const cell = findCell(nb, cellId);
        return cell && (cell.status === 'queued' || cell.status === 'running')
          ? finishExecution(nb, cellId, status)
          : nb;
      });
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
      started: (cellId, executionCount) => edit((nb) => startExecution(nb, cellId, executionCount)),
      output: (cellId, outputs) => edit((nb) => appendOutputs(nb, cellId, outputs), true),
      updateDisplay: (cellId, displayId, data) =>
        edit((nb) => updateDisplay(nb, cellId, displayId, data), true),
      clearOutput: (cellId) => edit((nb) => clearRunningOutputs(nb, cellId), true),
      done: (event, executionCount) => {
        const status = event.status === 'ok' ? 'done' : 'error';
        edit((nb) => {
          let next = finishExecution(nb, event.cellId, status, executionCount);
          if (event.droppedOutputs > 0) {
            const text = `… ${event.droppedOutputs} more output${event.droppedOutputs === 1 ? '' : 's'} not kept: the cell produced more than a notebook keeps.\n`;
            next = appendOutputs(next, event.cellId, [{ kind: 'stream', name: 'stderr', text }]);
          }
          return next;
        }, true);
      },
      cancelled: backToIdle,
      reset: (reason, runningCellId) => {
        // The cell that was running gets a word of why it ended (no `done` comes for it).
        const why = RESET_CELL_ERROR[reason];
        if (runningCellId && why) {
          edit(
            (nb) => appendOutputs(nb, runningCellId, [{ kind: 'error', ...why, traceback: [] }]),
            true,
          );
        }
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
      client?.dispose(); // still subscribed: its queued cells go back to idle
      unsubscribe?.();
      unsubscribe = null;
      client = null;
      crashesSinceReady = 0;
    }

    const ensureClient = (): KernelClient => {
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
      const kernel = ensureClient();
      const runGeneration = generation;
      for (const cellId of cellIds) {
        const cell = findCell(notebook, cellId);
        if (!cell) continue;
        if (cell.type === 'markdown') {
          get().setMarkdownEditing(cellId, false);
          continue;
        }
        if (kernel.isPending(cellId)) continue;
        // The source as it is now, when the run is asked for, as in Jupyter.
        edit((nb) => queueCell(nb, cellId), true);
        void kernel
          .execute(cellId, cell.source, notebookLanguage(notebook))
          .then((result) => finished(cellId, result, runGeneration));
      }
    };

    return {
      kernelState: 'dead',
      kernelInfo: null,
      kernelNotice: null,

      startKernel: () => {
        ensureClient();
      },
      stopKernel: () => {
        const runningCellId = client?.runningCellId ?? null;
        dropClient();
        if (runningCellId) edit((nb) => finishExecution(nb, runningCellId, 'idle'));
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
      interrupt: () => client?.interrupt(),
      restart: () => {
        if (client) client.restart();
        else {
          ensureClient();
          set({ kernelNotice: null });
        }
      },
      dismissKernelNotice: () => set({ kernelNotice: null }),
      runHidden: async (code) => {
        const notebook = get().notebook;
        const kernel = ensureClient();
        hiddenRuns += 1;
        // Not a cell id: the notebook's cells never see this run's events.
        const id = `hidden-run-${hiddenRuns}`;
        const outputs: CellOutput[] = [];
        const stop = kernel.subscribe({
          output: (cellId, added) => {
            if (cellId === id) outputs.push(...added);
          },
        });
        try {
          const language = notebook ? notebookLanguage(notebook) : 'typescript';
          return { status: await kernel.execute(id, code, language, { silent: true }), outputs };
        } finally {
          stop();
        }
      },
    };
  };
}
