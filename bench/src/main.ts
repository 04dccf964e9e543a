/**
 * The benchmark page: runs every engine in its own dedicated worker, one after another (so they
 * never compete for the adapter or the cores), and leaves the results on `window.__bench` for the
 * driver script.
 */
import { casesFor, ENGINES } from './cases';
import type { BenchEvent, CaseResult } from './protocol';

interface BenchState {
  done: boolean;
  adapter: string;
  results: CaseResult[];
  tuning: [string, string][];
}

const state: BenchState = { done: false, adapter: 'unknown', results: [], tuning: [] };
(window as unknown as { __bench: BenchState }).__bench = state;
const log = document.getElementById('log')!;

function runEngine(engine: (typeof ENGINES)[number]): Promise<void> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<BenchEvent>) => {
      const message = event.data;
      if (message.type === 'adapter') state.adapter = message.description;
      if (message.type === 'tuning') state.tuning = message.entries;
      if (message.type === 'result') {
        state.results.push(message.result);
        const r = message.result;
        log.textContent += `${r.engine} ${r.name} ${JSON.stringify(r.params)} ${r.error ?? r.seconds.map((s) => s.toFixed(4)).join(' ')}\n`;
      }
      if (message.type === 'done') {
        worker.terminate();
        resolve();
      }
    };
    worker.onerror = (event) => {
      log.textContent += `${engine} crashed: ${event.message}\n`;
      worker.terminate();
      resolve();
    };
    const cases = casesFor(engine).filter((c) => !onlyCases || onlyCases.includes(c.name));
    worker.postMessage({ engine, cases });
  });
}

const query = new URLSearchParams(location.search);
const only = query.get('engines')?.split(',');
const onlyCases = query.get('cases')?.split(',');
for (const engine of ENGINES) {
  if (only && !only.includes(engine)) continue;
  await runEngine(engine);
}
state.done = true;
log.textContent += 'done\n';
