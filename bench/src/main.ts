/**
 * The benchmark page: runs every engine in its own dedicated worker and leaves the results on
 * `window.__bench` for the driver script. The engines take turns case by case: each case runs on
 * every engine, one engine at a time (so they never compete for the adapter or the cores), before
 * the next case starts. Each engine's worker starts it once and stays for the whole run (a case
 * marked `ownWorker` gets a fresh one, see protocol.ts). Engines compared in one row of the
 * results are timed minutes apart at most, not a whole engine's run apart: on a host whose speed
 * shifts from minute to minute, a ratio between two engines timed far apart moved with the host
 * (bench/NOTES.md item 30).
 */
import { casesFor, ENGINES } from './cases';
import { startCellEngine } from './engines/cell-engine';
import { isCellEngine } from './engines/cells';
import type { BenchEvent, CaseRequest, CaseResult, EngineName } from './protocol';

interface BenchState {
  done: boolean;
  adapter: string;
  results: CaseResult[];
  tuning: [string, string][];
}

const state: BenchState = { done: false, adapter: 'unknown', results: [], tuning: [] };
(window as unknown as { __bench: BenchState }).__bench = state;
const log = document.getElementById('log')!;

/** One engine's worker: runs the cases it is sent, one batch at a time (none once it crashed). */
interface EngineWorker {
  run(cases: CaseRequest[]): Promise<void>;
  close(): void;
}

/** A result, kept for the driver script and logged on the page. */
function record(r: CaseResult): void {
  state.results.push(r);
  log.textContent += `${r.engine} ${r.name} ${JSON.stringify(r.params)} ${r.error ?? r.seconds.map((s) => s.toFixed(4)).join(' ')}\n`;
}

/** `shared`: the engine's worker for the whole run, whose tuner's choices the report lists. */
function engineWorker(engine: EngineName, shared: boolean): EngineWorker {
  // The cell engines start the app's kernel worker from this page, as the app does.
  if (isCellEngine(engine)) return startCellEngine(engine, record);
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  let finish: (() => void) | null = null;
  let crashed = false;
  worker.onmessage = (event: MessageEvent<BenchEvent>) => {
    const message = event.data;
    if (message.type === 'adapter') state.adapter = message.description;
    if (message.type === 'tuning' && shared) state.tuning = message.entries;
    if (message.type === 'result') record(message.result);
    if (message.type === 'done') finish?.();
  };
  worker.onerror = (event) => {
    log.textContent += `${engine} crashed: ${event.message}\n`;
    crashed = true;
    worker.terminate();
    finish?.();
  };
  return {
    run(cases) {
      if (crashed) return Promise.resolve();
      return new Promise((resolve) => {
        finish = resolve;
        worker.postMessage({ engine, cases });
      });
    },
    close: () => worker.terminate(),
  };
}

const query = new URLSearchParams(location.search);
const only = query.get('engines')?.split(',');
const onlyCases = query.get('cases')?.split(',');
// `sizes=1024`: of the products, only those with m in the list (bench.mjs --sizes).
const onlySizes = query.get('sizes')?.split(',').map(Number);

// Every engine's cases, grouped by case (name and sizes) in the order they first appear.
const caseKey = (c: CaseRequest) => `${c.turnWith ?? c.name} ${JSON.stringify(c.params)}`;
const turns = new Map<string, { engine: EngineName; request: CaseRequest }[]>();
for (const engine of ENGINES) {
  if (only && !only.includes(engine)) continue;
  for (const request of casesFor(engine)) {
    if (onlyCases && !onlyCases.includes(request.name)) continue;
    if (onlySizes && request.params.m !== undefined && !onlySizes.includes(request.params.m))
      continue;
    const key = caseKey(request);
    if (!turns.has(key)) turns.set(key, []);
    turns.get(key)!.push({ engine, request });
  }
}
const workers = new Map<EngineName, EngineWorker>();
for (const turn of turns.values()) {
  for (const { engine, request } of turn) {
    if (request.ownWorker) {
      const own = engineWorker(engine, false);
      await own.run([request]);
      own.close();
      continue;
    }
    if (!workers.has(engine)) workers.set(engine, engineWorker(engine, true));
    await workers.get(engine)!.run([request]);
  }
}
for (const worker of workers.values()) worker.close();
state.done = true;
log.textContent += 'done\n';
