/**
 * One kernel worker started ahead of need. On a page that will open a notebook, the worker's
 * script (the whole engine) downloads, parses and evaluates while the notebook itself loads and
 * renders, instead of after: on a 2-core host that was 0.2–0.4 s of the page's 0.8–1.9 s to an
 * idle kernel (bench/NOTES.md item 28). The first kernel to start takes it; later ones start
 * their own.
 */

/** What the reserve needs of a worker: an error event before anyone listens, and terminate. */
export interface ReservableWorker {
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

export interface WorkerReserve<W extends ReservableWorker> {
  /** Starts the spare worker (once). */
  prewarm(): void;
  /** The spare worker if it is still healthy, else a new one. */
  take(): W;
}

export function workerReserve<W extends ReservableWorker>(make: () => W): WorkerReserve<W> {
  let spare: W | null = null;
  let failed = false;
  return {
    prewarm() {
      if (spare) return;
      const worker = make();
      // A script that fails to load reports it here, before any kernel listens: that worker
      // is not handed out (a fresh one reports the failure to its kernel as a crash).
      worker.onerror = (event) => {
        event.preventDefault();
        failed = true;
      };
      spare = worker;
    },
    take() {
      const worker = spare;
      spare = null;
      if (worker && !failed) {
        worker.onerror = null;
        return worker;
      }
      worker?.terminate();
      failed = false;
      return make();
    },
  };
}
