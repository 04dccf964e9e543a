/**
 * For tests of interrupting Python: another thread writes SIGINT into the shared buffer, as the
 * page does, while the test's own thread is busy in a Python loop.
 *
 * It writes every 150 ms from 300 ms after it runs until stopped, so neither a slow start of the
 * cell (a kernel clears the buffer as a cell starts, so a signal before that is lost) nor a
 * signal taken by the kernel's own code can leave the cell running. Resolves once the thread
 * runs: a thread that cannot start fails the test here, before any loop.
 */
import { Worker } from 'node:worker_threads';
import { PYTHON_SIGINT, PYTHON_SIGNAL_SLOT } from '../../protocol';

export async function interruptFromAnotherThread(
  buffer: SharedArrayBuffer,
): Promise<{ stop: () => Promise<number> }> {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const signal = () => Atomics.store(new Int32Array(workerData.buffer), workerData.slot, workerData.signal);
     setTimeout(() => { signal(); setInterval(signal, 150); }, 300);`,
    { eval: true, workerData: { buffer, slot: PYTHON_SIGNAL_SLOT, signal: PYTHON_SIGINT } },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  return { stop: () => worker.terminate() };
}

/**
 * A busy Python loop that gives up after 20 s: if no interrupt lands, the test fails instead of
 * blocking its worker (and the whole run) for ever.
 */
export const BOUNDED_BUSY_LOOP =
  'import time\n_end = time.monotonic() + 20\nwhile time.monotonic() < _end:\n    pass';
