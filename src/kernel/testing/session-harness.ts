/**
 * A kernel session driven from a test, as the worker drives it: cells run in order on one notebook
 * scope, each `run` resolves with the cell's `done` event, and outputs are collected per cell.
 * Test-only.
 */
import type { CellOutput, DoneEvent, WorkerEvent } from '../protocol';
import { KernelSession, type EngineSetup } from '../session';

/** `params` are the notebook link's query parameters the cells see (`size=test` unless given). */
export function startTestSession(
  setup: () => Promise<EngineSetup>,
  params: Record<string, string> = { size: 'test' },
) {
  const events: WorkerEvent[] = [];
  const waiters: Array<{ cellId: string; resolve: (e: DoneEvent) => void }> = [];
  const session = new KernelSession((event) => {
    events.push(event);
    if (event.type === 'done') {
      for (const w of waiters.filter((x) => x.cellId === event.cellId)) w.resolve(event);
    }
  }, setup);
  session.handle({ type: 'init', params, interruptFlag: null });
  let count = 0;
  const run = (code: string) => {
    const cellId = `c${++count}`;
    const done = new Promise<DoneEvent>((resolve) => waiters.push({ cellId, resolve }));
    session.handle({ type: 'execute', cellId, code, executionCount: count });
    return { cellId, done };
  };
  const outputsOf = (cellId: string): CellOutput[] =>
    events.flatMap((e) => (e.type === 'output' && e.cellId === cellId ? e.outputs : []));
  return { session, events, run, outputsOf };
}
