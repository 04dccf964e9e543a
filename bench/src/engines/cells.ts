/**
 * Engines `cell-ts` and `cell-python`: the user's path. Each case runs as two notebook cells (the
 * files in ./cells/) in the real kernel worker, started by the app's own `createKernelClient`
 * (same worker module, same messages, the app's tuning policy): a setup cell that builds the
 * inputs or the model (untimed), then a time cell that times the work itself with
 * `performance.now()` / `time.perf_counter()`, as a student would, and prints the seconds; the
 * engine reads them from the cell's output. One kernel serves all of an engine's cases, as one
 * notebook would (a case marked `ownWorker` gets a fresh kernel).
 *
 * Unlike the engine-direct rows (a bench worker calling the engine with the 'first-use' tuning
 * policy and waiting for tuning before each timed run), nothing here waits for the tuner or
 * changes its policy: whatever tuning the app does happens inside these timings, as in a notebook.
 */
import type { KernelClient } from '../../../src/kernel/client';
import type { CellLanguage, CellOutput } from '../../../src/kernel/protocol';
import type { CaseRequest, CaseResult, EngineName } from '../protocol';
import TS_CELLS from './cells/cells-ts.md?raw';
import PYTHON_CELLS from './cells/cells-python.md?raw';

export type CellEngine = 'cell-ts' | 'cell-python';

export const isCellEngine = (engine: EngineName): engine is CellEngine =>
  engine === 'cell-ts' || engine === 'cell-python';

const LANGUAGE: Record<CellEngine, CellLanguage> = {
  'cell-ts': 'typescript',
  'cell-python': 'python',
};

interface CaseCells {
  setup: string;
  time: string;
}

/** The cells of each case in a cells file: fenced blocks tagged `<language> setup|time <case>`. */
export function parseCells(markdown: string): Map<string, CaseCells> {
  const cases = new Map<string, CaseCells>();
  const fence = /^```(?:ts|python) (setup|time) ([\w-]+)\n([\s\S]*?)^```$/gm;
  for (const [, role, name, code] of markdown.matchAll(fence)) {
    const cells = cases.get(name) ?? { setup: '', time: '' };
    cells[role as keyof CaseCells] = code;
    cases.set(name, cells);
  }
  return cases;
}

const CELLS: Record<CellEngine, Map<string, CaseCells>> = {
  'cell-ts': parseCells(TS_CELLS),
  'cell-python': parseCells(PYTHON_CELLS),
};

/** The line the engine puts before a setup cell: `bench`, the case's sizes. */
export function benchLine(language: CellLanguage, params: Record<string, number>): string {
  const sizes = JSON.stringify(params);
  return language === 'python' ? `bench = ${sizes}` : `const bench = ${sizes};`;
}

/** The seconds a time cell printed on its `bench-seconds` line, or null when it printed none. */
export function printedSeconds(text: string): number[] | null {
  const line = /^bench-seconds (\[.*\])$/m.exec(text);
  if (!line) return null;
  const values: unknown = JSON.parse(line[1]);
  return Array.isArray(values) && values.every((v) => typeof v === 'number') ? values : null;
}

/**
 * The runs of a time cell that are warm-ups: one (the "one warm-up, then the median of
 * three"); none in `matmul-loop`, whose every product counts (the loop's stalls are its point).
 */
export const cellWarmups = (name: string): number => (name === 'matmul-loop' ? 0 : 1);

const median = (values: readonly number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** What a case's note says of its runs. */
function runsNote(name: string, runs: readonly number[], setupSeconds: number): string {
  const s = (v: number) => `${v.toFixed(3)} s`;
  const setup = `setup cell ${s(setupSeconds)} (untimed)`;
  if (name !== 'matmul-loop') {
    return `runs as the cell timed them, warm-up first: ${runs.map(s).join(', ')}; ${setup}`;
  }
  const mid = median(runs);
  const max = Math.max(...runs);
  return (
    `${runs.length} products: median ${s(mid)}, max ${s(max)} (product ${runs.indexOf(max) + 1}), ` +
    `max/median ${(max / mid).toFixed(2)}×; all: ${runs.map((v) => v.toFixed(3)).join(' ')}; ${setup}`
  );
}

/** The text of a cell's outputs, an error as `ename: evalue`. */
function outputText(outputs: readonly CellOutput[]): string {
  return outputs
    .map((o) =>
      o.kind === 'stream' ? o.text : o.kind === 'error' ? `${o.ename}: ${o.evalue}\n` : '',
    )
    .join('');
}

/** What the engine needs of a kernel: KernelClient's queue and its output events. */
export type CellKernel = Pick<KernelClient, 'execute' | 'subscribe'>;

let cellCount = 0;

/** Runs one case's setup and time cells on `kernel` and reads the seconds the time cell printed. */
export async function runCellCase(
  kernel: CellKernel,
  engine: CellEngine,
  request: CaseRequest,
): Promise<CaseResult> {
  const base = { name: request.name, engine, params: request.params, flops: request.flops };
  const cells = CELLS[engine].get(request.name);
  if (!cells?.setup || !cells.time)
    return { ...base, seconds: [], error: 'no cells for this case' };
  const language = LANGUAGE[engine];
  const outputs = new Map<string, CellOutput[]>();
  const unsubscribe = kernel.subscribe({
    output: (cellId, added) => outputs.get(cellId)?.push(...added),
  });
  const run = async (code: string) => {
    const cellId = `bench-${engine}-${++cellCount}`;
    outputs.set(cellId, []);
    const status = await kernel.execute(cellId, code, language);
    return { status, text: outputText(outputs.get(cellId) ?? []) };
  };
  try {
    const started = performance.now();
    const setup = await run(`${benchLine(language, request.params)}\n${cells.setup}`);
    const setupSeconds = (performance.now() - started) / 1000;
    if (setup.status !== 'ok') {
      return { ...base, seconds: [], error: `setup cell ${setup.status}: ${setup.text.trim()}` };
    }
    const time = await run(cells.time);
    const runs = time.status === 'ok' ? printedSeconds(time.text) : null;
    if (!runs) {
      return { ...base, seconds: [], error: `time cell ${time.status}: ${time.text.trim()}` };
    }
    return {
      ...base,
      seconds: runs.slice(cellWarmups(request.name)),
      runs,
      note: runsNote(request.name, runs, setupSeconds),
    };
  } finally {
    unsubscribe();
  }
}
